package bucket

import (
	"strings"
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
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// deletable is the policy set that opts into deleting the bucket.
var deletable = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
	xpv2.ManagementActionUpdate, xpv2.ManagementActionDelete, xpv2.ManagementActionLateInitialize}

func withPolicies(p xpv2.ManagementPolicies) bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ManagementPolicies = p }
}

// TestDeleteOnAPIServer deletes Buckets on the real API server: an empty
// bucket is deleted; one holding an object, a noncurrent version or only
// a delete marker is kept with a condition naming what remains, and
// deleted once emptied; without Delete the bucket stays; a Bucket that
// does not hold its bucket (another namespace's Bucket does) is refused
// before any request. The subtests run in parallel: crossplane-runtime
// trusts that a bucket is gone only 30s after the provider created it.
func TestDeleteOnAPIServer(t *testing.T) {
	testenv.Skip(t)
	s := startPolling(t, time.Second)
	for name, f := range map[string]func(*testing.T){"Empty": s.deleteEmpty, "NotEmpty": s.deleteNotEmpty,
		"Retain": s.deleteRetained, "OtherNamespaceHolds": s.deleteHeldElsewhere} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t)
		})
	}
}

func (s *apiServer) remove(t *testing.T, b *v1alpha1.Bucket) {
	t.Helper()
	if err := env.Client.Delete(ctx(t), b); err != nil {
		t.Fatal(err)
	}
}

func (s *apiServer) gone(t *testing.T, b *v1alpha1.Bucket) {
	t.Helper()
	gomega.NewWithT(t).Eventually(func() bool {
		return kerrors.IsNotFound(env.Client.Get(ctx(t), client.ObjectKeyFromObject(b), &v1alpha1.Bucket{}))
	}, 60*time.Second, 100*time.Millisecond).Should(gomega.BeTrue(), "Bucket %s deleted", b.Name)
}

func (s *apiServer) deleteEmpty(t *testing.T) {
	b := s.apply(t, "empty", withPolicies(deletable))
	s.waitFor(t, "empty", isReady)
	s.remove(t, b)
	s.gone(t, b)
	if s.rfs.HasBucket("empty") {
		t.Error("bucket empty: want deleted, it exists")
	}
	if n := s.requests("empty", rustfstest.RouteDeleteBucket); n != 1 {
		t.Errorf("DeleteBucket requests: want 1, got %d", n)
	}
}

func (s *apiServer) deleteNotEmpty(t *testing.T) {
	cases := map[string]struct {
		seed func(name string)
		want string
	}{
		"Object": {func(n string) { s.rfs.PutObject(n, "k", []byte("v")) }, "holds 1 objects, 0 noncurrent versions and 0 delete markers"},
		"NoncurrentVersion": {func(n string) {
			s.rfs.PutObject(n, "k", []byte("v1"))
			s.rfs.PutObject(n, "k", []byte("v2"))
		}, "holds 1 objects, 1 noncurrent versions and 0 delete markers"},
		"DeleteMarker": {func(n string) { s.rfs.RemoveObject(n, "k") }, "holds 0 objects, 0 noncurrent versions and 1 delete markers"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := "full-" + strings.ToLower(name)
			b := s.apply(t, n, withPolicies(deletable), withVersioning(v1alpha1.VersioningEnabled))
			s.waitFor(t, n, isReady)
			tc.seed(n)
			s.remove(t, b)
			got := s.waitFor(t, n, "False/"+string(v1alpha1.ReasonBucketNotEmpty))
			if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, tc.want) {
				t.Errorf("BucketNotEmpty does not say what remains (%s): %q", tc.want, msg)
			}
			if !s.rfs.HasBucket(n) || s.requests(n, rustfstest.RouteDeleteBucket) != 0 {
				t.Errorf("a bucket that is not empty: want kept with no DeleteBucket request, got exists %t and %d requests",
					s.rfs.HasBucket(n), s.requests(n, rustfstest.RouteDeleteBucket))
			}
			s.rfs.EmptyBucket(n)
			s.gone(t, b)
			if s.rfs.HasBucket(n) {
				t.Errorf("bucket %s: want deleted once empty", n)
			}
		})
	}
}

func (s *apiServer) deleteRetained(t *testing.T) {
	b := s.apply(t, "kept")
	s.waitFor(t, "kept", isReady)
	before := s.requests("kept")
	s.remove(t, b)
	s.gone(t, b)
	if !s.rfs.HasBucket("kept") {
		t.Error("bucket kept: a Bucket without Delete deleted its bucket")
	}
	if n := s.requests("kept") - before; n != 0 {
		t.Errorf("requests to the bucket after deletion without Delete: want 0, got %d", n)
	}
}

// deleteHeldElsewhere: namespace A's Bucket holds the bucket; namespace
// B's Bucket of the same bucket, with Delete, is deleted. It lists and
// deletes nothing: either it never held the bucket and goes at
// once, or it is refused as NotBucketHolder until Delete is removed. The
// bucket and A's Bucket stay, and nothing names namespace A.
func (s *apiServer) deleteHeldElsewhere(t *testing.T) {
	s.apply(t, "shared")
	s.waitFor(t, "shared", isReady)
	nsB := "bucket-b-" + rand.String(5)
	if err := env.Client.Create(ctx(t), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: nsB}}); err != nil {
		t.Fatal(err)
	}
	b := bucket(withPolicies(deletable), withProviderConfig(s.ns))
	b.ObjectMeta = metav1.ObjectMeta{Namespace: nsB, Name: "shared"}
	if err := env.Client.Create(ctx(t), b); err != nil {
		t.Fatal(err)
	}
	g := gomega.NewWithT(t)
	g.Eventually(func() string {
		_ = env.Client.Get(ctx(t), client.ObjectKeyFromObject(b), b)
		return condition(b)
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.Equal("False/"+string(v1alpha1.ReasonDuplicateBucket)), "B's Bucket refused")
	s.remove(t, b)
	refused := "False/" + string(v1alpha1.ReasonNotBucketHolder)
	g.Eventually(func() string {
		if err := env.Client.Get(ctx(t), client.ObjectKeyFromObject(b), b); kerrors.IsNotFound(err) {
			return "gone"
		}
		return condition(b)
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.BeElementOf("gone", refused))
	if n := s.requests("shared", rustfstest.RouteDeleteBucket, rustfstest.RouteListVersions); n != 0 {
		t.Errorf("delete and listing requests to the bucket for B's deletion: want 0, got %d", n)
	}
	if condition(b) == refused {
		if msg := b.GetCondition(xpv2.TypeReady).Message; strings.Contains(msg, s.ns) {
			t.Errorf("the refusal names namespace A: %q", msg)
		}
		if err := env.Edit(ctx(t), b, func() { withPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})(b) }); err != nil {
			t.Fatal(err)
		}
		s.gone(t, b)
	}
	if !s.rfs.HasBucket("shared") {
		t.Error("bucket shared: deleted by B")
	}
	s.waitFor(t, "shared", isReady)
}
