package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A typeScenario is how one of the Azure, GCS and Wasabi tier types reaches
// the world's remote and holds its credentials.
type typeScenario struct {
	typ      v1alpha1.TierType
	secret   func(ak, sk string) map[string]string // the Secret's data
	spec     func(w *world, t *v1alpha1.Tier)      // type-specific settings
	endpoint func(w *world) string                 // what RustFS stores
	holds    func(r rustfstest.TierRecord, ak, sk string) bool
	edits    int // edit requests per credentials edit: 2 for rc's GCS
}

func keysHeld(r rustfstest.TierRecord, ak, sk string) bool {
	return r.AccessKey == ak && r.SecretKey == sk
}

func typeScenarios() map[string]typeScenario {
	accountKeys := func(ak, sk string) map[string]string { return map[string]string{"accountname": ak, "accountkey": sk} }
	return map[string]typeScenario{
		"Azure": {typ: v1alpha1.TierTypeAzure, secret: accountKeys, holds: keysHeld,
			spec: func(_ *world, t *v1alpha1.Tier) {
				t.Spec.ForProvider.CredentialsSecretRef.AccessKeyKey = "accountname"
				t.Spec.ForProvider.CredentialsSecretRef.SecretKeyKey = "accountkey"
			},
			endpoint: func(w *world) string { return w.remote.TierURL() }},
		"GCS": {typ: v1alpha1.TierTypeGCS, edits: 2,
			secret: func(ak, sk string) map[string]string {
				return map[string]string{v1alpha1.DefaultAuthorizedUserKey: rustfstest.GCSAuthorizedUser(ak, sk)}
			},
			spec:     func(*world, *v1alpha1.Tier) {},
			endpoint: func(w *world) string { return w.remote.TierURL() },
			holds: func(r rustfstest.TierRecord, ak, sk string) bool {
				return r.Creds == rustfstest.GCSAuthorizedUser(ak, sk)
			}},
		"Wasabi": {typ: v1alpha1.TierTypeWasabi, secret: func(ak, sk string) map[string]string {
			return map[string]string{v1alpha1.DefaultAccessKeyKey: ak, v1alpha1.DefaultSecretKeyKey: sk}
		}, holds: keysHeld,
			spec: func(_ *world, t *v1alpha1.Tier) {
				t.Spec.ForProvider.Endpoint, t.Spec.ForProvider.Region = "", "eu-west-1"
			},
			endpoint: func(*world) string { return "https://s3.eu-west-1.wasabisys.com" }},
	}
}

// Scenario 7: each of the Azure, GCS and Wasabi types is registered with its
// own credential shape, a tier of it registered out of band with the same
// settings is adopted with one credential edit, and a Secret update rotates
// both within seconds, against RustFS 1.0.0-rc, the release that adds these
// types (1.0.x cannot find its probe object on them, docs/rustfs-wire.md
// §4.3). A GCS edit is sent as 1.0.x's body first; rc answers
// TierMissingCredentials and gets its own body, so it counts twice.
func TestScenario7NewTierTypesAreRegisteredAdoptedAndRotated(t *testing.T) {
	testenv.Skip(t)
	for name, sc := range typeScenarios() {
		t.Run(name, func(t *testing.T) {
			// Wasabi's endpoint is Wasabi's own name over HTTPS: a TLS
			// emulator answers it for the local RustFS.
			wasabi := rustfstest.NewServer(rustfstest.WithTLS(), rustfstest.WithRootCredentials(remoteAK, remoteSK),
				rustfstest.WithUser(rotatedAK, rotatedSK, "s3:*"))
			t.Cleanup(wasabi.Close)
			wasabi.CreateBucket(remoteBucket, false)
			w := newWorld(t, time.Hour, rustfstest.WithMode(rustfstest.ModeRC), rustfstest.WithRemoteAlias("s3.eu-west-1.wasabisys.com", wasabi.Addr()))
			secretName := strings.ToLower(name) + "-tier"
			w.create(typedSecret(w.ns, secretName, sc.secret(remoteAK, remoteSK)))
			tierOf := func(n, tierName string) *v1alpha1.Tier {
				tr := w.tier(n, tierName, withTierSecret(secretName))
				tr.Spec.ForProvider.Type = sc.typ
				sc.spec(w, tr)
				return tr
			}
			old := rustfstest.TierRecord{Type: strings.ToLower(string(sc.typ)), Name: "ADOPTED", Endpoint: sc.endpoint(w),
				Bucket: remoteBucket, Prefix: "ADOPTED/", AccessKey: oldTierAK, SecretKey: oldTierSK,
				Creds: rustfstest.GCSAuthorizedUser(oldTierAK, oldTierSK)}
			if sc.typ == v1alpha1.TierTypeWasabi {
				old.Region = "eu-west-1"
			}
			w.local.SeedTier(old)
			fresh, adopted := tierOf("fresh", "FRESH"), tierOf("adopted", "ADOPTED")
			w.create(fresh, adopted)
			w.waitReady(fresh, adopted)

			perEdit := max(sc.edits, 1)
			w.expectCounts(map[string]int{rustfstest.RouteAddTier: 1, rustfstest.RouteEditTier: perEdit})
			for _, n := range []string{"FRESH", "ADOPTED"} {
				live, _ := w.local.Tier(n)
				if !sc.holds(live, remoteAK, remoteSK) || live.Endpoint != sc.endpoint(w) || live.Type != old.Type {
					t.Errorf("tier %s: type %s, endpoint %s, holds the Secret's credentials %t", n, live.Type, live.Endpoint,
						sc.holds(live, remoteAK, remoteSK))
				}
			}
			w.rotateTypedSecret(secretName, sc.secret(rotatedAK, rotatedSK))
			w.within(5*time.Second, func(g gomega.Gomega) {
				for _, n := range []string{"FRESH", "ADOPTED"} {
					live, _ := w.local.Tier(n)
					g.Expect(sc.holds(live, rotatedAK, rotatedSK)).To(gomega.BeTrue(), "tier %s holds the rotated credentials", n)
				}
			})
			w.expectCounts(map[string]int{rustfstest.RouteAddTier: 1, rustfstest.RouteEditTier: 3 * perEdit})
		})
	}
}

func typedSecret(ns, name string, data map[string]string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: data}
}

// rotateTypedSecret replaces a Secret's data.
func (w *world) rotateTypedSecret(name string, data map[string]string) {
	w.t.Helper()
	if err := env.Client.Update(w.ctx, typedSecret(w.ns, name, data)); err != nil {
		w.t.Fatalf("cannot update Secret %s: %v", name, err)
	}
}
