package bucketaccess

import (
	"os"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucket"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A cluster is one test's namespaces, emulator, ClusterProviderConfig and
// running Bucket and BucketAccess controllers, on the shared API server.
type cluster struct {
	t        *testing.T
	g        gomega.Gomega
	rfs      *rustfstest.Server
	config   string
	log      *testenv.LogBuffer
	requests *testenv.RequestLog
}

// startCluster creates the namespaces (with a random suffix, returned in
// order), an emulator, a ClusterProviderConfig with nameScope scope, and
// starts the controllers with the given poll interval.
func startCluster(t *testing.T, poll time.Duration, scope v1alpha1.NameScope, namespaces ...string) (*cluster, []string) {
	t.Helper()
	suffix := rand.String(5)
	c := &cluster{t: t, g: gomega.NewWithT(t), config: "access-" + suffix, log: &testenv.LogBuffer{}, requests: &testenv.RequestLog{}}
	c.rfs = rustfstest.NewServer(rustfstest.WithRootCredentials(adminAK, adminSK))
	t.Cleanup(c.rfs.Close)
	var out []string
	for _, n := range append([]string{systemNS}, namespaces...) {
		if n != systemNS {
			n += "-" + suffix
			out = append(out, n)
		}
		err := env.Client.Create(ctx(t), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}})
		if err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	for _, o := range clusterConfig(c.config, c.rfs.URL(), scope) {
		c.create(o)
	}
	t.Cleanup(func() {
		if t.Failed() && os.Getenv("BUCKETACCESS_LOG") != "" {
			_ = os.WriteFile(os.Getenv("BUCKETACCESS_LOG"), []byte(c.log.String()), 0o600)
		}
	})
	env.StartManagerObserved(t, c.log, c.requests, options.ControllerSettings{Poll: poll}, Setup, bucket.Setup)
	return c, out
}

func (c *cluster) create(o client.Object) {
	c.t.Helper()
	if err := env.Client.Create(ctx(c.t), o); err != nil {
		c.t.Fatalf("cannot create %T: %v", o, err)
	}
}

// bucket creates a Bucket for bucket name in ns and waits until it is Ready.
func (c *cluster) bucket(ns, name string) {
	c.t.Helper()
	b := bucketObject(ns, name, name, c.config)
	c.create(b)
	c.waitBucket(b, "True/Available")
}

// access creates a BucketAccess in ns through the cluster's config.
func (c *cluster) access(ns, name string, m ...accessModifier) *v1alpha1.BucketAccess {
	c.t.Helper()
	cr := access(ns, name, c.config, m...)
	c.create(cr)
	return cr
}

// get returns the current state of cr.
func (c *cluster) get(cr *v1alpha1.BucketAccess) *v1alpha1.BucketAccess {
	c.t.Helper()
	got := &v1alpha1.BucketAccess{}
	if err := env.Client.Get(ctx(c.t), client.ObjectKeyFromObject(cr), got); err != nil {
		c.t.Fatalf("cannot get BucketAccess: %v", err)
	}
	return got
}

// waitFor waits up to timeout for cr's condition ct to read want.
func (c *cluster) waitFor(cr *v1alpha1.BucketAccess, ct xpv2.ConditionType, want string, timeout time.Duration) *v1alpha1.BucketAccess {
	c.t.Helper()
	var got *v1alpha1.BucketAccess
	c.g.Eventually(func() string {
		got = c.get(cr)
		return condition(got, ct)
	}, timeout, 50*time.Millisecond).Should(gomega.Equal(want), "condition %s of %s", ct, cr.GetName())
	return got
}

// secret returns the connection Secret of cr; nil when it does not exist.
func (c *cluster) secret(cr *v1alpha1.BucketAccess) *corev1.Secret {
	c.t.Helper()
	s := &corev1.Secret{}
	err := env.Client.Get(ctx(c.t), client.ObjectKey{Namespace: cr.Namespace, Name: cr.Spec.WriteConnectionSecretToReference.Name}, s)
	switch {
	case kerrors.IsNotFound(err):
		return nil
	case err != nil:
		c.t.Fatal(err)
	}
	return s
}

// key waits until cr's connection Secret holds a secret key other than
// not, and returns its access and secret keys.
func (c *cluster) key(cr *v1alpha1.BucketAccess, not string) (string, string) {
	c.t.Helper()
	var ak, sk string
	c.g.Eventually(func() bool {
		s := c.secret(cr)
		if s == nil {
			return false
		}
		ak, sk = string(s.Data[v1alpha1.ConnectionAccessKey]), string(s.Data[v1alpha1.ConnectionSecretKey])
		return sk != "" && sk != not
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.BeTrue(), "a new secret key in the Secret of %s", cr.Name)
	return ak, sk
}

// events returns the messages of the events of namespace ns.
func (c *cluster) events(ns string) []string {
	l := &corev1.EventList{}
	if err := env.Client.List(ctx(c.t), l, client.InNamespace(ns)); err != nil {
		c.t.Fatal(err)
	}
	out := make([]string, len(l.Items))
	for i, e := range l.Items {
		out[i] = e.Reason + ": " + e.Message
	}
	return out
}

// expectRotatedEvents checks that n CredentialsRotated events were raised
// about cr: one per replaced secret key.
func (c *cluster) expectRotatedEvents(cr *v1alpha1.BucketAccess, n int32) {
	c.t.Helper()
	count := func() int32 {
		l := &corev1.EventList{}
		if err := env.Client.List(ctx(c.t), l, client.InNamespace(cr.Namespace)); err != nil {
			c.t.Fatal(err)
		}
		var got int32
		for _, e := range l.Items {
			if e.InvolvedObject.Name == cr.Name && e.Reason == string(reasonCredentialsRotated) {
				got += max(e.Count, 1)
			}
		}
		return got
	}
	c.g.Eventually(count, 20*time.Second, 50*time.Millisecond).Should(gomega.Equal(n), "CredentialsRotated events about %s", cr.Name)
}
