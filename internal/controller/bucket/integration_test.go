package bucket

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

// TestBucketOnAPIServer runs the Bucket controller as the provider binary
// does, against an emulator, for one namespace of Buckets.
func TestBucketOnAPIServer(t *testing.T) {
	testenv.Skip(t)
	rfs := rustfstest.NewServer(rustfstest.WithRootCredentials(adminAK, adminSK))
	t.Cleanup(rfs.Close)
	rfs.CreateBucket("existing", false)
	rfs.CreateBucket("locked", true)
	for _, n := range []string{ns, systemNS} {
		if err := env.Client.Create(ctx(t), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}}); err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	for _, o := range clusterConfig("default", rfs.URL(), "") {
		if err := env.Client.Create(ctx(t), o); err != nil {
			t.Fatal(err)
		}
	}
	env.StartManager(t, options.ControllerSettings{Poll: time.Hour}, Setup)

	apply := func(name string, m ...bucketModifier) *v1alpha1.Bucket {
		b := bucket()
		// The controller sets the external name from metadata.name, and
		// the CRD defaults the management policies.
		b.ObjectMeta = metav1.ObjectMeta{Namespace: ns, Name: name}
		b.Spec.ManagementPolicies = nil
		for _, f := range m {
			f(b)
		}
		if err := env.Client.Create(ctx(t), b); err != nil {
			t.Fatalf("cannot create Bucket %s: %v", name, err)
		}
		return b
	}
	waitFor := func(t *testing.T, b *v1alpha1.Bucket, want string) *v1alpha1.Bucket {
		t.Helper()
		got := &v1alpha1.Bucket{}
		gomega.NewWithT(t).Eventually(func() string {
			if err := env.Client.Get(ctx(t), client.ObjectKeyFromObject(b), got); err != nil {
				return err.Error()
			}
			return condition(got)
		}, 20*time.Second, 50*time.Millisecond).Should(gomega.Equal(want), "Ready of Bucket %s", b.Name)
		return got
	}

	t.Run("CreateAndAdopt", func(t *testing.T) {
		fresh := waitFor(t, apply("fresh", withVersioning(v1alpha1.VersioningEnabled)), isReady)
		existing := waitFor(t, apply("existing"), isReady)
		if fresh.Status.AtProvider.Adopted || !existing.Status.AtProvider.Adopted {
			t.Errorf("adopted: want fresh false and existing true, got %t and %t",
				fresh.Status.AtProvider.Adopted, existing.Status.AtProvider.Adopted)
		}
		if n := rfs.Count(rustfstest.RouteCreateBucket); n != 1 {
			t.Errorf("want 1 bucket created (fresh), got %d", n)
		}
		if got := rfs.BucketVersioning("fresh"); got != "Enabled" {
			t.Errorf("versioning of fresh: want Enabled, got %q", got)
		}
	})

	t.Run("VersioningUpdate", func(t *testing.T) {
		b := waitFor(t, &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "existing"}}, isReady)
		b.Spec.ForProvider.Versioning = v1alpha1.VersioningSuspended
		if err := env.Client.Update(ctx(t), b); err != nil {
			t.Fatal(err)
		}
		gomega.NewWithT(t).Eventually(func() string { return rfs.BucketVersioning("existing") }, 5*time.Second, 50*time.Millisecond).
			Should(gomega.Equal("Suspended"))
	})

	t.Run("ObjectLockImmutable", func(t *testing.T) {
		b := waitFor(t, &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "fresh"}}, isReady)
		b.Spec.ForProvider.ObjectLock = true
		err := env.Client.Update(ctx(t), b)
		if err == nil || !strings.Contains(err.Error(), "objectLock is immutable") {
			t.Errorf("changing objectLock: want it rejected as immutable, got %v", err)
		}
	})

	t.Run("DeletePolicyRejected", func(t *testing.T) {
		b := bucket(func(b *v1alpha1.Bucket) {
			b.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionAll}
		})
		b.ObjectMeta = metav1.ObjectMeta{Namespace: ns, Name: "deletable"}
		err := env.Client.Create(ctx(t), b)
		if err == nil || !strings.Contains(err.Error(), "buckets are Retain-only") {
			t.Errorf("managementPolicies [*]: want it rejected, got %v", err)
		}
	})

	t.Run("BucketConflict", func(t *testing.T) {
		writes := rfs.Writes()
		got := waitFor(t, apply("locked"), "False/BucketConflict")
		if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "spec.forProvider.objectLock: live true, desired false") {
			t.Errorf("BucketConflict does not name the field: %q", msg)
		}
		if w := rfs.Writes() - writes; w != 0 {
			t.Errorf("conflict: want no writes, got %d", w)
		}
	})

	t.Run("InvalidBucketName", func(t *testing.T) {
		requests := len(rfs.Requests())
		got := waitFor(t, apply("bad", withExternalName("bad..name")), "False/InvalidBucketName")
		if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "two adjacent periods") {
			t.Errorf("InvalidBucketName does not name the rule: %q", msg)
		}
		if n := len(rfs.Requests()) - requests; n != 0 {
			t.Errorf("invalid name: want no request to RustFS, got %d", n)
		}
	})
}
