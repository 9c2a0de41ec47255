package e2e

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// coldBytes is the seeded size of namespace A's tier: a number namespace B
// must never read.
const coldBytes = 7340033

// Tier statistics are read once per RustFS and credentials and shared, and
// the verify writes on the remote: namespace B must learn neither A's
// numbers nor its health. B's Tiers naming A's tier, one through the
// platform's ClusterProviderConfig and one through B's own ProviderConfig
// and admin user, never get statistics, a verify or a tier gauge; B's Tier
// of its own tier gets that tier's row only.
func TestTenancyTierStatsAndHealthStayWithTheOwner(t *testing.T) {
	testenv.Skip(t)
	w := newStoppedWorld(t, shortPoll, rustfstest.WithUser(tenantAdminAK, tenantAdminSK, "admin:*", "s3:*"))
	w.verify = time.Second
	w.local.SeedTierStats("COLD", rustfstest.TierStat{TotalSize: coldBytes, NumVersions: 5, NumObjects: 4})
	t.Cleanup(w.startProvider())
	t.Cleanup(w.finish)
	tn := &tenancy{world: w, a: w.addNamespace(), b: w.addNamespace()}
	w.create(secret(tn.a, tierSecretName, remoteAK, remoteSK), secret(tn.b, tierSecretName, rotatedAK, rotatedSK))
	tn.providerConfig(tn.b, "own", tn.local.URL(), tenantAdminAK, tenantAdminSK)

	owner := tn.tier(tn.a, "a-cold", "COLD", withPrefix("cold/"))
	tn.create(owner)
	tn.waitReady(owner)
	tn.waitHealthy(owner, corev1.ConditionTrue)
	shared := tn.tier(tn.b, "b-cold", "COLD", withPrefix("cold/"))
	own := tn.tier(tn.b, "b-cold-own", "COLD", withPrefix("cold/"), withTierLocalProviderConfig("own"))
	warm := tn.tier(tn.b, "b-warm", "WARM", withPrefix("b-warm/"))
	tn.createAfter([]managedObject{owner}, shared, own, warm)
	tn.waitReady(warm)
	tn.waitHealthy(warm, corev1.ConditionTrue)
	tn.waitReconciled(shared, own)
	tn.awaitPolls(rustfstest.RouteTierStats, polls, nil)

	tn.get(tn.g, owner)
	if s := owner.Status.AtProvider.Stats; s == nil || s.Bytes != coldBytes {
		t.Errorf("namespace A's Tier: want status.atProvider.stats.bytes %d, got %+v", coldBytes, s)
	}
	for _, b := range []*v1alpha1.Tier{shared, own} {
		tn.expectNoTierNumbers(b)
	}
	tn.get(tn.g, warm)
	if s := warm.Status.AtProvider.Stats; s == nil || s.Bytes != 0 || s.Objects != 0 {
		t.Errorf("namespace B's own Tier WARM: want its own row (zeros), got %+v", s)
	}
	s := scrapeMetrics(tn.g)
	for _, name := range tierGauges {
		for _, b := range []*v1alpha1.Tier{shared, own} {
			if _, ok := s.value(name, map[string]string{"namespace": b.GetNamespace(), "name": b.GetName()}); ok {
				t.Errorf("%s is served for namespace B's Tier %s, which does not own the tier", name, b.GetName())
			}
		}
	}
}

// expectNoTierNumbers checks that a Tier that does not own its tier holds
// no statistics, no verify record, no RemoteHealthy result, and that its
// status does not carry the owner's numbers.
func (tn *tenancy) expectNoTierNumbers(cr *v1alpha1.Tier) {
	tn.t.Helper()
	tn.get(tn.g, cr)
	if c := cr.GetCondition(xpv2.TypeReady); c.Status == corev1.ConditionTrue {
		tn.t.Errorf("namespace B's Tier %s naming A's tier: want not Ready, got %s", cr.GetName(), describe(c))
	}
	if s, h := cr.Status.AtProvider.Stats, cr.Status.AtProvider.Health; s != nil || h != nil {
		tn.t.Errorf("namespace B's Tier %s: want no statistics and no verify record, got stats %+v health %+v", cr.GetName(), s, h)
	}
	if c := cr.GetCondition(v1alpha1.TypeRemoteHealthy); c.Status == corev1.ConditionTrue || c.Status == corev1.ConditionFalse {
		tn.t.Errorf("namespace B's Tier %s: want no RemoteHealthy result, got %s", cr.GetName(), describe(c))
	}
	status, err := json.Marshal(cr.Status)
	if err != nil {
		tn.t.Fatalf("cannot encode the status of %s: %v", cr.GetName(), err)
	}
	if strings.Contains(string(status), strconv.Itoa(coldBytes)) {
		tn.t.Errorf("namespace B's Tier %s shows namespace A's tier size: %s", cr.GetName(), status)
	}
}
