package bucketlifecycle

import (
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// A cluster is one test's namespace, emulator, ClusterProviderConfig and
// running controller, on the shared API server.
type cluster struct {
	t   *testing.T
	g   gomega.Gomega
	rfs *rustfstest.Server
	ns  string
}

// startCluster creates a namespace named ns plus a random suffix (so a
// test can run again on the same API server), an emulator with the bucket
// app-data, a ClusterProviderConfig named after the namespace, and starts
// the controller with the given poll interval.
func startCluster(t *testing.T, ns string, poll time.Duration, opts ...rustfstest.Option) *cluster {
	t.Helper()
	ns += "-" + rand.String(5)
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
