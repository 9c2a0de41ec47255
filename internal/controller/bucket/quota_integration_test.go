package bucket

import (
	"testing"
	"time"

	"github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// On the real API server: a quota is set, changed, corrected after
// someone changes it in RustFS, enforced on a PUT over it, and cleared.
func TestQuotaOnAPIServer(t *testing.T) {
	testenv.Skip(t)
	s := startPolling(t, time.Second)
	g := gomega.NewWithT(t)
	limit := func() uint64 { return s.rfs.BucketQuota("quota") }
	b := s.apply(t, "quota", withQuotaOf("1Ki"))
	s.waitFor(t, "quota", isReady)
	g.Eventually(limit, 10*time.Second, 50*time.Millisecond).Should(gomega.Equal(uint64(1024)), "quota set at create")

	if status := putStatus(t, s.rfs.URL(), "quota", "big", 2000); status != 400 {
		t.Errorf("PUT over the quota: want 400, got %d", status)
	}
	if err := env.Edit(ctx(t), b, func() { withQuotaOf("4Ki")(b) }); err != nil {
		t.Fatal(err)
	}
	g.Eventually(limit, 10*time.Second, 50*time.Millisecond).Should(gomega.Equal(uint64(4096)), "quota changed")
	if status := putStatus(t, s.rfs.URL(), "quota", "big", 2000); status != 200 {
		t.Errorf("PUT within the changed quota: want 200, got %d", status)
	}

	s.rfs.SetBucketQuota("quota", 1<<30)
	g.Eventually(limit, 10*time.Second, 50*time.Millisecond).Should(gomega.Equal(uint64(4096)), "drift corrected at a poll")
	got := s.waitFor(t, "quota", isReady)
	g.Eventually(func() int64 {
		_ = env.Client.Get(ctx(t), client.ObjectKeyFromObject(got), got)
		if got.Status.AtProvider.Usage == nil {
			return -1
		}
		return got.Status.AtProvider.Usage.Value()
	}, 10*time.Second, 50*time.Millisecond).Should(gomega.Equal(int64(2000)), "status.atProvider.usage")

	if err := env.Edit(ctx(t), b, func() { withQuotaOf("")(b) }); err != nil {
		t.Fatal(err)
	}
	g.Eventually(limit, 10*time.Second, 50*time.Millisecond).Should(gomega.BeZero(), "quota cleared")
	g.Eventually(func() bool {
		_ = env.Client.Get(ctx(t), client.ObjectKeyFromObject(got), got)
		return got.Status.AtProvider.Quota == nil
	}, 10*time.Second, 50*time.Millisecond).Should(gomega.BeTrue(), "status.atProvider.quota cleared")
}
