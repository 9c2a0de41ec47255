package tier

import (
	"net/http"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// A Tier whose add RustFS refused four times (retried after 1, 2, 4 and 8
// seconds of failure backoff) becomes Ready within seconds of the add that
// succeeds, not after the 16 seconds the next backoff step would be
// (issue 25: the observe after a create waited behind the failures).
func TestReadySoonAfterAddSucceedsFollowingRefusals(t *testing.T) {
	it := newITest(t, "refused", nil)
	it.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Status: http.StatusServiceUnavailable, Code: "ServiceUnavailable", Times: 4})
	cr := it.tier("cold")
	it.create(cr)

	it.g.Eventually(func() bool {
		_, ok := it.local.Tier("COLD")
		return ok
	}).WithTimeout(60*time.Second).WithPolling(20*time.Millisecond).Should(gomega.BeTrue(), "the fifth add succeeds")
	added := time.Now()
	got := &v1alpha1.Tier{}
	it.g.Eventually(func(g gomega.Gomega) {
		g.Expect(it.kube.Get(ctx(t), client.ObjectKeyFromObject(cr), got)).To(gomega.Succeed())
		g.Expect(got.GetCondition(xpv2.TypeReady).Status).To(gomega.Equal(corev1.ConditionTrue))
	}).WithTimeout(60 * time.Second).WithPolling(50 * time.Millisecond).Should(gomega.Succeed())
	if d := time.Since(added); d > 6*time.Second {
		t.Errorf("Ready %s after the add succeeded; want within 6s (the base requeue of 1s, not the failure backoff of 16s)", d.Round(100*time.Millisecond))
	}
}
