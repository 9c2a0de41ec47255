package bucketlifecycle

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}

// A cluster is one test's namespace, emulator, ClusterProviderConfig and
// running controller, on the shared API server.
type cluster struct {
	t   *testing.T
	g   gomega.Gomega
	rfs *rustfstest.Server
	ns  string
}

// startCluster creates namespace ns, an emulator with the bucket app-data,
// a ClusterProviderConfig named after ns, and starts the controller with
// the given poll interval.
func startCluster(t *testing.T, ns string, poll time.Duration, opts ...rustfstest.Option) *cluster {
	t.Helper()
	c := &cluster{t: t, g: gomega.NewWithT(t), ns: ns}
	c.rfs = rustfstest.NewServer(append([]rustfstest.Option{rustfstest.WithRootCredentials(adminAK, adminSK)}, opts...)...)
	t.Cleanup(c.rfs.Close)
	c.rfs.CreateBucket(bucketName, false)
	for _, n := range []string{ns, systemNS} {
		err := env.Client.Create(ctx(t), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}})
		if err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	objs := clusterConfig(ns, c.rfs.URL())
	objs[1].SetName(adminSecret + "-" + ns)
	objs[0].(*v1alpha1.ClusterProviderConfig).Spec.Credentials.SecretRef.Name = adminSecret + "-" + ns
	for _, o := range objs {
		if err := env.Client.Create(ctx(t), o); err != nil {
			t.Fatal(err)
		}
	}
	env.StartManager(t, options.ControllerSettings{Poll: poll}, Setup)
	return c
}

// lifecycle returns a BucketLifecycle in the cluster's namespace using its
// ClusterProviderConfig, with fixture defaults the API server accepts.
func (c *cluster) lifecycle(name string, m ...lcModifier) *v1alpha1.BucketLifecycle {
	cr := lifecycle(append([]lcModifier{withProviderConfig(c.ns)}, m...)...)
	cr.ObjectMeta = metav1.ObjectMeta{Namespace: c.ns, Name: name}
	cr.Spec.ManagementPolicies = nil // the CRD default applies
	return cr
}

func (c *cluster) create(o client.Object) {
	c.t.Helper()
	if err := env.Client.Create(ctx(c.t), o); err != nil {
		c.t.Fatalf("cannot create %T: %v", o, err)
	}
}

// get returns the current state of cr.
func (c *cluster) get(cr *v1alpha1.BucketLifecycle) *v1alpha1.BucketLifecycle {
	got := &v1alpha1.BucketLifecycle{}
	if err := env.Client.Get(ctx(c.t), client.ObjectKeyFromObject(cr), got); err != nil {
		c.t.Fatalf("cannot get BucketLifecycle: %v", err)
	}
	assertNoSecret(c.t, "BucketLifecycle status and annotations", statusText(c.t, got))
	return got
}

// waitFor waits up to timeout for cr's condition ct to read want.
func (c *cluster) waitFor(cr *v1alpha1.BucketLifecycle, ct xpv2.ConditionType, want string, timeout time.Duration) *v1alpha1.BucketLifecycle {
	c.t.Helper()
	var got *v1alpha1.BucketLifecycle
	c.g.Eventually(func() string {
		got = c.get(cr)
		return condition(got, ct)
	}, timeout, 50*time.Millisecond).Should(gomega.Equal(want), "condition %s of %s", ct, cr.GetName())
	return got
}

// events returns the events recorded for the object named name, and checks
// them for secrets.
func (c *cluster) events(name string) []corev1.Event {
	l := &corev1.EventList{}
	if err := env.Client.List(ctx(c.t), l, client.InNamespace(c.ns)); err != nil {
		c.t.Fatal(err)
	}
	var out []corev1.Event
	for _, e := range l.Items {
		assertNoSecret(c.t, "event", e.Message)
		if e.InvolvedObject.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// attempts returns how often reconciling name failed to resolve references.
func (c *cluster) attempts(name string) int32 {
	var n int32
	for _, e := range c.events(name) {
		if e.Reason == "CannotResolveResourceReferences" {
			n += max(e.Count, 1)
		}
	}
	return n
}

func tierObject(ns, name, tierName string) *v1alpha1.Tier {
	t := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	t.Spec.ForProvider = v1alpha1.TierParameters{Name: tierName, Type: v1alpha1.TierTypeRustFS, Endpoint: "http://remote.example:9000",
		Bucket: "remote", CredentialsSecretRef: v1alpha1.TierSecretReference{Name: "remote"}}
	t.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: ns}
	return t
}

func bucketObject(ns, name, bucket string) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	meta.SetExternalName(b, bucket)
	b.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: ns}
	return b
}

// A referenced object is a Tier or a Bucket.
type referenced interface {
	client.Object
	SetConditions(...xpv2.Condition)
}

// markReady sets the Ready condition of o through the status subresource,
// as the Tier or Bucket controller would.
func markReady(t *testing.T, o referenced) {
	t.Helper()
	if err := env.Client.Get(ctx(t), client.ObjectKeyFromObject(o), o); err != nil {
		t.Fatal(err)
	}
	o.SetConditions(xpv2.Available())
	if err := env.Client.Status().Update(ctx(t), o); err != nil {
		t.Fatalf("cannot mark %s Ready: %v", o.GetName(), err)
	}
}

// A referenceCase creates the object a BucketLifecycle waits for and
// returns it with the modifier that makes the lifecycle reference it.
type referenceCase struct {
	reason string
	setup  func(c *cluster) (referenced, lcModifier)
}

func referenceCases() map[string]referenceCase {
	return map[string]referenceCase{
		"TierRef": {
			reason: "A transition's tierRef resolves once the Tier is Ready.",
			setup: func(c *cluster) (referenced, lcModifier) {
				c.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
				tr := tierObject(c.ns, "cold", "COLD")
				c.create(tr)
				return tr, withRules(specRule("to-cold", func(r *v1alpha1.LifecycleRule) {
					r.Transitions = []v1alpha1.Transition{{Days: i32(7), TierRef: &xpv2.NamespacedReference{Name: "cold"}}}
				}))
			},
		},
		"BucketRef": {
			reason: "bucketRef resolves once the Bucket is Ready.",
			setup: func(c *cluster) (referenced, lcModifier) {
				b := bucketObject(c.ns, "data", bucketName)
				c.create(b)
				return b, func(cr *v1alpha1.BucketLifecycle) {
					cr.Spec.ForProvider.Bucket = ""
					cr.Spec.ForProvider.BucketRef = &xpv2.NamespacedReference{Name: "data"}
				}
			},
		},
	}
}

// TestReadyReferenceTriggersPut runs with a one-hour poll interval: the put
// must follow within 5 seconds of the referenced Tier or Bucket becoming
// Ready, through the watches, not through the poll or the backoff.
func TestReadyReferenceTriggersPut(t *testing.T) {
	testenv.Skip(t)
	for name, tc := range referenceCases() {
		t.Run(name, func(t *testing.T) {
			// Not parallel: every manager reconciles every namespace, and a
			// second one would retry on its own backoff.
			c := startCluster(t, "watch-"+strings.ToLower(name), time.Hour)
			ref, mod := tc.setup(c)
			cr := c.lifecycle("waits", mod)
			c.create(cr)

			// After 4 failed resolutions (about 0, 1, 3 and 7 s) the next
			// backoff retry is 8 s away, so a put within 5 s is the watch's.
			c.g.Eventually(func() int32 { return c.attempts(cr.Name) }, 30*time.Second, 100*time.Millisecond).
				Should(gomega.BeNumerically(">=", 4), tc.reason)
			if n := c.rfs.Count(putRoute); n != 0 {
				t.Fatalf("%s\nput before the reference was Ready: %d", tc.reason, n)
			}
			markReady(t, ref)
			c.g.Eventually(func() int { return c.rfs.Count(putRoute) }, 5*time.Second, 50*time.Millisecond).
				Should(gomega.Equal(1), "%s\nno put within 5 s of the reference becoming Ready", tc.reason)
			c.waitFor(cr, xpv2.TypeReady, isReady, 10*time.Second)
		})
	}
}

func TestDroppedFieldsOnePutAcrossPolls(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "dropped", 100*time.Millisecond, rustfstest.WithDroppedLifecycleFields("DelMarkerExpiration"))
	cr := c.lifecycle("markers", withRules(specRule("markers", expireAfter(30), delMarkersAfter(3))))
	c.create(cr)

	got := c.waitFor(cr, v1alpha1.TypeLifecycleDegraded, "True/FieldsDropped", 20*time.Second)
	c.waitFor(cr, xpv2.TypeReady, isReady, 10*time.Second)
	if msg := got.GetCondition(v1alpha1.TypeLifecycleDegraded).Message; !strings.Contains(msg, "rules[markers].delMarkerExpiration.days") {
		t.Errorf("LifecycleDegraded does not name the dropped field: %q", msg)
	}
	polls := c.rfs.Count(rustfstest.RouteGetLifecycle)
	c.g.Eventually(func() int { return c.rfs.Count(rustfstest.RouteGetLifecycle) }, 20*time.Second, 50*time.Millisecond).
		Should(gomega.BeNumerically(">=", polls+10), "ten more polls")
	if n := c.rfs.Count(putRoute); n != 1 {
		t.Errorf("across %d polls of a configuration RustFS dropped a field from: want exactly 1 PUT, got %d",
			c.rfs.Count(rustfstest.RouteGetLifecycle), n)
	}
}

func TestTierRegisteredLater(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "late-tier", time.Hour)
	cr := c.lifecycle("to-cold", withRules(specRule("to-cold", transitionTo("COLD", 0))))
	c.create(cr)

	got := c.waitFor(cr, xpv2.TypeReady, "False/TierNotFound", 20*time.Second)
	if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "COLD") {
		t.Errorf("TierNotFound does not name the storage class: %q", msg)
	}
	c.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
	c.waitFor(cr, xpv2.TypeReady, isReady, 70*time.Second)
}

func TestDeletionRetainsRules(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "retain", time.Hour)
	cr := c.lifecycle("kept")
	c.create(cr)
	c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)

	if err := env.Client.Delete(ctx(t), cr); err != nil {
		t.Fatal(err)
	}
	c.g.Eventually(func() bool {
		return kerrors.IsNotFound(env.Client.Get(ctx(t), client.ObjectKeyFromObject(cr), &v1alpha1.BucketLifecycle{}))
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.BeTrue(), "the BucketLifecycle is deleted")
	if _, ok := c.rfs.Lifecycle(bucketName); !ok {
		t.Errorf("deleting the BucketLifecycle removed the bucket's rules")
	}
	if n := c.rfs.Count(deleteRule); n != 0 {
		t.Errorf("deleting the BucketLifecycle: want no DELETE, got %d", n)
	}
	c.events(cr.Name) // checks them for secrets
}

// TestDuplicateTakesOver checks that a second BucketLifecycle of the same
// bucket writes nothing while the first exists, and takes over once the
// first is deleted (the poll interval is one hour: the deletion is seen
// through the watch on BucketLifecycles).
func TestDuplicateTakesOver(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "duplicate", time.Hour)
	first := c.lifecycle("a-first")
	c.create(first)
	c.waitFor(first, xpv2.TypeReady, isReady, 20*time.Second)
	live, _ := c.rfs.Lifecycle(bucketName)

	second := c.lifecycle("b-second", withRules(specRule("other", expireAfter(1))))
	c.create(second)
	got := c.waitFor(second, xpv2.TypeReady, "False/DuplicateLifecycle", 20*time.Second)
	if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, c.ns+"/a-first") {
		t.Errorf("DuplicateLifecycle does not name the owner: %q", msg)
	}
	if now, _ := c.rfs.Lifecycle(bucketName); c.rfs.Count(putRoute) != 1 || string(now) != string(live) {
		t.Errorf("the duplicate wrote: %d PUTs in all", c.rfs.Count(putRoute))
	}

	if err := env.Client.Delete(ctx(t), first); err != nil {
		t.Fatal(err)
	}
	c.waitFor(second, xpv2.TypeReady, isReady, 20*time.Second)
	if now, _ := c.rfs.Lifecycle(bucketName); !strings.Contains(string(now), "<ID>other</ID>") {
		t.Errorf("the second BucketLifecycle did not put its rules after taking over")
	}
}
