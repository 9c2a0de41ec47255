package tier

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// The Azure, GCS and Wasabi types: registered with their own credential
// shapes, adopted, compared and rotated against an rc emulator and a GA
// emulator whose backends of these types find the probe object
// (WithCandidateProbe: RustFS 1.0.x's cannot, docs/rustfs-wire.md §4.3),
// both of which probe or list the remote (docs/rustfs-wire.md §2, §13.2).

const auKey = "credentials.json"

// gcsJSON is GCS credentials JSON the harness's remote accepts for the
// identity (ak, sk) in mode: an authorized user, which GA's credential
// check also wants labelled "service_account".
func gcsJSON(mode rustfstest.Mode, ak, sk string) string {
	au := rustfstest.GCSAuthorizedUser(ak, sk)
	if mode == rustfstest.ModeGA {
		return strings.Replace(au, `"authorized_user"`, `"service_account"`, 1)
	}
	return au
}

func setSecretData(h *harness, data map[string]string) {
	h.t.Helper()
	s := tierSecret()
	if err := h.kube.Get(ctx(h.t), client.ObjectKeyFromObject(s), s); err != nil {
		h.t.Fatal(err)
	}
	s.Data = map[string][]byte{}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	if err := h.kube.Update(ctx(h.t), s); err != nil {
		h.t.Fatal(err)
	}
}

// typeCase registers, adopts and rotates one type in one release.
type typeCase struct {
	mode     rustfstest.Mode
	tier     func(h *harness, m ...tierModifier) *v1alpha1.Tier
	secret   func(ak, sk string) map[string]string
	record   func(h *harness) rustfstest.TierRecord
	harness  func(t *testing.T) *harness
	liveKeys func(r rustfstest.TierRecord) string
}

// probing is the GA emulator option that lets these types' backends find
// their probe object.
var probing = rustfstest.WithCandidateProbe("azure", "gcs", "wasabi")

func typeCases() map[string]typeCase {
	cases := map[string]typeCase{}
	for release, mode := range map[string]rustfstest.Mode{"RC": rustfstest.ModeRC, "GA": rustfstest.ModeGA} {
		for name, tc := range typeCasesIn(mode) {
			tc.mode = mode
			cases[name+release] = tc
		}
	}
	return cases
}

func typeCasesIn(mode rustfstest.Mode) map[string]typeCase {
	keys := func(ak, sk string) map[string]string { return map[string]string{"accesskey": ak, "secretkey": sk} }
	staticKeys := func(r rustfstest.TierRecord) string { return keyLabel(r.AccessKey) + "/" + keyLabel(r.SecretKey) }
	return map[string]typeCase{
		"Azure": {
			harness: func(t *testing.T) *harness { return newHarness(t, mode, withLocal(probing)) },
			tier: func(h *harness, m ...tierModifier) *v1alpha1.Tier {
				return tier(h.remote.TierURL(), append([]tierModifier{withType(v1alpha1.TierTypeAzure)}, m...)...)
			},
			secret: keys, liveKeys: staticKeys,
			record: func(h *harness) rustfstest.TierRecord {
				return rustfstest.TierRecord{Type: "azure", Name: "COLD", Endpoint: h.remote.TierURL(), Bucket: remoteBkt, Prefix: tierPrefix, Region: "us-east-1"}
			},
		},
		"Wasabi": {
			harness: func(t *testing.T) *harness { return wasabiHarness(t, mode) },
			tier: func(_ *harness, m ...tierModifier) *v1alpha1.Tier {
				return tier("", append([]tierModifier{withType(v1alpha1.TierTypeWasabi), withRegion("eu-west-1")}, m...)...)
			},
			secret: keys, liveKeys: staticKeys,
			record: func(*harness) rustfstest.TierRecord {
				return rustfstest.TierRecord{Type: "wasabi", Name: "COLD", Endpoint: "https://s3.eu-west-1.wasabisys.com", Bucket: remoteBkt, Prefix: tierPrefix, Region: "eu-west-1"}
			},
		},
		"GCS": {
			harness: func(t *testing.T) *harness { return newHarness(t, mode, withLocal(probing)) },
			tier: func(h *harness, m ...tierModifier) *v1alpha1.Tier {
				return tier(h.remote.TierURL(), append([]tierModifier{withType(v1alpha1.TierTypeGCS), withRegion("")}, m...)...)
			},
			secret: func(ak, sk string) map[string]string { return map[string]string{auKey: gcsJSON(mode, ak, sk)} },
			record: func(h *harness) rustfstest.TierRecord {
				return rustfstest.TierRecord{Type: "gcs", Name: "COLD", Endpoint: h.remote.TierURL(), Bucket: remoteBkt, Prefix: tierPrefix}
			},
			liveKeys: func(r rustfstest.TierRecord) string {
				for _, ak := range []string{tierAK, rotatedAK} {
					if strings.Contains(r.Creds, `"client_id":"`+ak+`"`) {
						return keyLabel(ak)
					}
				}
				return "<other credentials>"
			},
		},
	}
}

// wasabiHarness is a harness whose tier remote is a TLS emulator that the
// local emulator reaches as Wasabi's eu-west-1 endpoint.
func wasabiHarness(t *testing.T, mode rustfstest.Mode) *harness {
	remote := rustfstest.NewServer(rustfstest.WithMode(mode), rustfstest.WithTLS(), rustfstest.WithRootCredentials(tierAK, tierSK),
		rustfstest.WithUser(rotatedAK, rotatedSK, "s3:*"))
	t.Cleanup(remote.Close)
	remote.CreateBucket(remoteBkt, false)
	h := newHarness(t, mode, withLocal(rustfstest.WithRemoteAlias("s3.eu-west-1.wasabisys.com", remote.Addr()), probing))
	h.remote = remote
	return h
}

func TestNewTypesAreRegisteredAdoptedAndRotated(t *testing.T) {
	for name, tc := range typeCases() {
		t.Run(name, func(t *testing.T) {
			h := tc.harness(t)
			setSecretData(h, tc.secret(tierAK, tierSK))
			cr := h.store(tc.tier(h))
			h.expect(cr, "create", "")
			got, _ := h.local.Tier("COLD")
			want := tc.record(h)
			if diff := cmp.Diff(want, got, credentialFields()); diff != "" {
				t.Errorf("registered tier: -want +got:\n%s", diff)
			}
			if k := tc.liveKeys(got); k != tc.liveKeys(labelled(tc.mode, want, tierAK, tierSK)) {
				t.Errorf("registered with %s", k)
			}
			cr = h.fetch(cr)
			h.expect(cr, "none", "")

			setSecretData(h, tc.secret(rotatedAK, rotatedSK))
			h.expect(h.fetch(cr), "update", "")
			got, _ = h.local.Tier("COLD")
			if k := tc.liveKeys(got); k != tc.liveKeys(labelled(tc.mode, want, rotatedAK, rotatedSK)) {
				t.Errorf("after the rotation the tier has %s", k)
			}
			h.expect(h.fetch(cr), "none", "")

			// Adoption: the same settings registered out of band get the
			// Secret's credentials once.
			seeded := tc.record(h)
			seeded.Name, seeded.AccessKey, seeded.SecretKey, seeded.Creds = "ADOPT", "someone", "else", gcsJSON(tc.mode, "someone", "else")
			h.local.SeedTier(seeded)
			other := h.store(tc.tier(h, withMeta(ns, "adopt", 0), withName("ADOPT")))
			h.expect(other, "update", "")
			got, _ = h.local.Tier("ADOPT")
			if k := tc.liveKeys(got); k != tc.liveKeys(labelled(tc.mode, want, rotatedAK, rotatedSK)) {
				t.Errorf("after the adoption the tier has %s", k)
			}
		})
	}
}

func withRegion(r string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Region = r }
}

func credentialFields() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool {
		switch p.Last().String() {
		case ".AccessKey", ".SecretKey", ".Creds":
			return true
		}
		return false
	}, cmp.Ignore())
}

func labelled(mode rustfstest.Mode, r rustfstest.TierRecord, ak, sk string) rustfstest.TierRecord {
	r.AccessKey, r.SecretKey, r.Creds = ak, sk, gcsJSON(mode, ak, sk)
	return r
}

// A GCS Secret key that holds a service-account key, or anything but a
// Google authorized-user JSON, is reported before any write, naming the
// key and the credential kind RustFS reads.
func TestGCSSecretMustHoldAuthorizedUserJSON(t *testing.T) {
	for name, value := range map[string]string{
		"ServiceAccountKey": `{"type":"service_account","project_id":"p","client_email":"sa@p.iam","client_id":"1","private_key":"k"}`,
		"NoRefreshToken":    `{"type":"authorized_user","client_id":"c","client_secret":"s"}`,
		"NotJSON":           "client_id=c",
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeRC)
			setSecretData(h, map[string]string{auKey: value})
			cr := h.store(tier(h.remote.TierURL(), withType(v1alpha1.TierTypeGCS), withRegion("")))
			h.expect(cr, "observe", string(v1alpha1.ReasonTierSecretInvalid))
			msg := cr.GetCondition("Ready").Message
			if !strings.Contains(msg, `key "credentials.json"`) || !strings.Contains(msg, "authorized-user JSON") ||
				!strings.Contains(msg, "refuses a service-account key") {
				t.Errorf("Ready message %q does not name the key and the credential kind it must hold", msg)
			}
			if n := h.local.Writes(); n != 0 {
				t.Errorf("writes with invalid GCS credentials: %d", n)
			}
		})
	}
}

// A GA RustFS refuses a Cloudflare R2 remote at add (docs/rustfs-wire.md §13.7): the Tier says
// that type R2 needs a newer RustFS, and the add is not retried until the
// Tier, its Secret or its ProviderConfig changes.
func TestR2RefusalIsReportedAndNotRetried(t *testing.T) {
	r2 := rustfstest.NewServer(rustfstest.WithRootCredentials(tierAK, tierSK), rustfstest.WithR2PutVersionIDs())
	t.Cleanup(r2.Close)
	r2.CreateBucket(remoteBkt, false)
	h := newHarness(t, rustfstest.ModeGA)
	cr := h.store(tier(r2.TierURL(), withType(v1alpha1.TierTypeR2)))
	h.expect(cr, "create", string(v1alpha1.ReasonTierApplyFailed))
	if msg := cr.GetCondition("Ready").Message; !strings.Contains(msg, "needs a RustFS release newer than 1.0.0") {
		t.Errorf("Ready message %q does not say that R2 needs a newer RustFS", msg)
	}
	for range 3 {
		h.expect(h.fetch(cr), "observe", string(v1alpha1.ReasonTierApplyFailed))
	}
	if n := h.local.Count(rustfstest.RouteAddTier); n != 1 {
		t.Errorf("adds: %d, want 1 (no retry until something changes)", n)
	}
}

// A Wasabi tier is compared with the endpoint RustFS derives from its
// region; the other new types compare every setting like the others.
func TestNewTypesCompareLikeTheOthers(t *testing.T) {
	wasabi := desiredTier(v1alpha1.TierParameters{Name: "W", Type: v1alpha1.TierTypeWasabi, Region: "us-east-1", Bucket: "b"})
	if wasabi.Endpoint != "https://s3.wasabisys.com" || wasabi.Type != "wasabi" {
		t.Errorf("desired wasabi tier: endpoint %q, type %q", wasabi.Endpoint, wasabi.Type)
	}
	live := wasabi
	live.Region, live.Endpoint = "eu-west-1", "https://s3.eu-west-1.wasabisys.com"
	if d := settingsDiff(wasabi, live); len(d) != 2 || d[0].Field != "endpoint" || d[1].Field != "region" {
		t.Errorf("wasabi drift: %+v, want endpoint and region", d)
	}
	for _, typ := range []v1alpha1.TierType{v1alpha1.TierTypeAzure, v1alpha1.TierTypeGCS} {
		p := v1alpha1.TierParameters{Name: "T", Type: typ, Endpoint: "https://e.example.com", Bucket: "b", Prefix: "p/", Region: "r"}
		desired := desiredTier(p)
		for field, mod := range map[string]func(*rustfs.Tier){
			"endpoint": func(l *rustfs.Tier) { l.Endpoint = "https://other.example.com" },
			"bucket":   func(l *rustfs.Tier) { l.Bucket = "other" },
			"prefix":   func(l *rustfs.Tier) { l.Prefix = "other/" },
			"region":   func(l *rustfs.Tier) { l.Region = "other" },
		} {
			l := desired
			mod(&l)
			if d := settingsDiff(desired, l); len(d) != 1 || d[0].Field != field {
				t.Errorf("%s: a different %s gives %+v", typ, field, d)
			}
		}
		if d := settingsDiff(desired, desired); len(d) != 0 {
			t.Errorf("%s: the same settings differ: %+v", typ, d)
		}
	}
}
