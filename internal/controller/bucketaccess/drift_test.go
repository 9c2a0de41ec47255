package bucketaccess

import (
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// wideOpen is a session policy someone might set out of band.
const wideOpen = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:*"],"Resource":["arn:aws:s3:::*"]}]}`

// TestDriftIsCorrected changes the key and its parent behind the
// provider's back and expects each change corrected at the next poll,
// with the same secret key: a widened session policy, a session policy
// removed (the parent's access), and a parent user mapped to another
// policy. A disabled key and a disabled parent are reported and never
// enabled again.
func TestDriftIsCorrected(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, 200*time.Millisecond, v1alpha1.NameScopeCluster, "drift")
	x := ns[0] + "-x"
	c.bucket(ns[0], x)
	cr := c.access(ns[0], "app", withGrants(grant(x, v1alpha1.AccessReadOnly, "")))
	c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)
	ak, sk := c.key(cr, "")
	want, _ := c.rfs.ServiceAccount(ak)
	parent := c.get(cr).Status.AtProvider.ParentUser

	for name, drift := range map[string]func(r rustfstest.ServiceAccountRecord) error{
		"WidenedPolicy": func(r rustfstest.ServiceAccountRecord) error { r.Policy = wideOpen; return c.rfs.SeedServiceAccount(r) },
		"ImpliedPolicy": func(r rustfstest.ServiceAccountRecord) error { r.Policy = ""; return c.rfs.SeedServiceAccount(r) },
		"ParentRemapped": func(rustfstest.ServiceAccountRecord) error {
			return c.rfs.SeedUser(rustfstest.UserRecord{Name: parent, Policies: []string{"readwrite"}})
		},
	} {
		if err := drift(want); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c.g.Eventually(func() string {
			got, _ := c.rfs.ServiceAccount(ak)
			u, _ := c.rfs.User(parent)
			if len(u.Policies) != 1 || u.Policies[0] != parent {
				return "parent mapped to " + u.Policies[0]
			}
			return got.Policy
		}, 20*time.Second, 50*time.Millisecond).Should(gomega.Equal(want.Policy), "%s: corrected", name)
		if got, _ := c.rfs.ServiceAccount(ak); got.SecretKey != sk {
			t.Errorf("%s: correcting drift changed the secret key", name)
		}
	}

	expectNeverEnabled(t, c, cr, want, parent)
}

// expectNeverEnabled disables the key, then the parent user, in RustFS and
// expects each reported, and the parent left disabled.
func expectNeverEnabled(t *testing.T, c *cluster, cr *v1alpha1.BucketAccess, want rustfstest.ServiceAccountRecord, parent string) {
	t.Helper()
	disabled := want
	disabled.Status = "off"
	if err := c.rfs.SeedServiceAccount(disabled); err != nil {
		t.Fatal(err)
	}
	c.waitFor(cr, xpv2.TypeReady, "False/"+string(v1alpha1.ReasonServiceAccountDisabled), 20*time.Second)
	if err := c.rfs.SeedServiceAccount(want); err != nil {
		t.Fatal(err)
	}
	c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)
	u, _ := c.rfs.User(parent)
	u.Status = "disabled"
	if err := c.rfs.SeedUser(u); err != nil {
		t.Fatal(err)
	}
	c.waitFor(cr, xpv2.TypeReady, "False/"+string(v1alpha1.ReasonParentUserDisabled), 20*time.Second)
	time.Sleep(time.Second)
	if got, _ := c.rfs.User(parent); got.Status != "disabled" {
		t.Errorf("the provider enabled the parent user again: %q", got.Status)
	}
}

// TestLostCreateAnswer: the key exists in RustFS under the namespace's
// parent, but no Secret holds its secret key, as after a Create whose
// answer was lost. The provider gives the key a new secret key and
// publishes it, without adding another account.
func TestLostCreateAnswer(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Hour, v1alpha1.NameScopeCluster, "lost")
	x := ns[0] + "-x"
	c.bucket(ns[0], x)
	c.rfs.PutObject(x, "a.txt", []byte("a"))
	cr := access(ns[0], "app", c.config, withGrants(grant(x, v1alpha1.AccessReadOnly, "")))
	meta.AddAnnotations(cr, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
	c.create(cr)

	admin, err := rustfs.New(rustfs.Config{Endpoint: c.rfs.URL(), AccessKey: adminAK, SecretKey: adminSK})
	if err != nil {
		t.Fatal(err)
	}
	parent, err := rustfs.NewParentUser(ns[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.EnsureParentUser(ctx(t), parent); err != nil {
		t.Fatal(err)
	}
	ak := accessKey(c.get(cr))
	const lost = "lost-secret-key-nobody-has-0123456789"
	policy, err := rustfs.SessionPolicy([]rustfs.BucketGrant{{Bucket: x, Access: rustfs.ReadOnly}})
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.AddServiceAccount(ctx(t), rustfs.NewServiceAccount{AccessKey: ak, SecretKey: lost, Policy: policy, TargetUser: parent.Name}); err != nil {
		t.Fatal(err)
	}
	adds := c.rfs.Count(rustfstest.RouteAddServiceAccount)

	got := c.get(cr)
	if err := env.Edit(ctx(t), got, func() { meta.RemoveAnnotations(got, meta.AnnotationKeyReconciliationPaused) }); err != nil {
		t.Fatal(err)
	}
	c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)
	gotAK, sk := c.key(cr, "")
	if gotAK != ak || sk == lost {
		t.Fatalf("the Secret holds access key %q (want %q) and the lost secret key: %t", gotAK, ak, sk == lost)
	}
	expectKey(t, c, "after a lost Create answer", x, ak, lost, sk)
	if n := c.rfs.Count(rustfstest.RouteAddServiceAccount); n != adds {
		t.Errorf("the provider added %d accounts for a key that exists", n-adds)
	}
}

// TestSteadyStateWritesNothing polls a Ready BucketAccess every 200 ms and
// counts what each poll costs RustFS: reads only, no write. It reports the
// reads per poll as numbers, never as times.
func TestSteadyStateWritesNothing(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, 200*time.Millisecond, v1alpha1.NameScopeCluster, "steady")
	x := ns[0] + "-x"
	c.bucket(ns[0], x)
	cr := c.access(ns[0], "app", withGrants(grant(x, v1alpha1.AccessReadOnly, "")))
	c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)
	c.key(cr, "")
	c.rfs.ResetCounters()
	const polls = 10
	c.g.Eventually(func() int { return c.rfs.Count(rustfstest.RouteServiceAccountInfo) }, 30*time.Second, 50*time.Millisecond).
		Should(gomega.BeNumerically(">=", polls))
	counts := c.rfs.Counts()
	if w := c.rfs.Writes(); w != 0 {
		t.Errorf("steady state: %d writes over %d polls, want none (counts %v)", w, counts[rustfstest.RouteServiceAccountInfo], counts)
	}
	// The Bucket controller polls too; these are the BucketAccess's routes.
	n := counts[rustfstest.RouteServiceAccountInfo]
	per := map[string]float64{}
	for _, r := range []string{rustfstest.RouteServiceAccountInfo, rustfstest.RouteUserInfo, rustfstest.RouteCannedPolicyInfo, rustfstest.RouteServerInfo} {
		per[r] = float64(counts[r]) / float64(n)
	}
	t.Logf("steady state over %d polls of the BucketAccess: requests per poll by route %v; all routes of both controllers %v", n, per, counts)
}
