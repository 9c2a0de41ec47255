package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Keys the remote does not know.
const (
	refusedAK = "remote-unknown"
	refusedSK = sentinel + "-refused"
)

// Scenario 6: against a GA RustFS, which probes the remote with new
// credentials before it takes them, a Secret update to keys the remote
// refuses is reported within seconds (Synced=False, the tier keeps the
// credentials it had and stays Ready, so transitions go on), is not
// retried, and the fixed Secret is applied within seconds.
func TestScenario6RotationToRefusedKeysKeepsTheTierWorking(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, time.Hour)
	tr := w.tier("tiers-test", "TIERS-TEST", withPrefix("tiers-test/"))
	w.create(tr)
	w.waitReady(tr)
	w.local.ResetCounters()

	if err := env.Client.Update(w.ctx, secret(w.ns, tierSecretName, refusedAK, refusedSK)); err != nil {
		t.Fatalf("cannot update Secret: %v", err)
	}
	w.within(5*time.Second, func(g gomega.Gomega) {
		w.get(g, tr)
		expectCondition(g, tr, xpv2.TypeSynced, corev1.ConditionFalse, xpv2.ReasonReconcileError)
		expectCondition(g, tr, xpv2.TypeReady, corev1.ConditionTrue, xpv2.ReasonAvailable)
		msg := tr.GetCondition(xpv2.TypeSynced).Message
		g.Expect(strings.Contains(msg, "keeps the credentials it had")).To(gomega.BeTrue(), "Synced message %q", redact(msg))
	})
	live, _ := w.local.Tier("TIERS-TEST")
	if live.AccessKey != remoteAK || live.SecretKey != remoteSK {
		t.Errorf("after the refused rotation the tier has access key %q, want the previous keys", live.AccessKey)
	}
	if err := w.client().VerifyTier(w.ctx, "TIERS-TEST"); err != nil {
		t.Errorf("the tier does not work with the keys RustFS kept: %v", err)
	}
	w.g.Consistently(func() int { return w.editsOf("TIERS-TEST") }).WithTimeout(time.Second).Should(gomega.Equal(1),
		"edits after the refused rotation: the refusal must not be retried until the Secret changes")

	if err := env.Client.Update(w.ctx, secret(w.ns, tierSecretName, rotatedAK, rotatedSK)); err != nil {
		t.Fatalf("cannot update Secret: %v", err)
	}
	w.within(5*time.Second, func(g gomega.Gomega) {
		live, _ := w.local.Tier("TIERS-TEST")
		g.Expect(live.AccessKey).To(gomega.Equal(rotatedAK))
		g.Expect(live.SecretKey == rotatedSK).To(gomega.BeTrue(), "the secret key is the fixed Secret's")
	})
	w.waitReady(tr)
	if n := w.local.Count(rustfstest.RouteEditTier); n != 2 {
		t.Errorf("credential edits: want 2 (refused, then the fixed Secret's), got %d", n)
	}
}
