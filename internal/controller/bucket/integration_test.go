package bucket

import (
	"os"
	"slices"
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
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}

// An apiServer runs the Bucket controller as the provider binary does, on
// the shared API server, against an emulator that already has the buckets
// "existing" and "locked" (with object lock). Its namespace and
// ClusterProviderConfig are named afresh for each run, so the test can run
// again on the same API server.
type apiServer struct {
	rfs *rustfstest.Server
	ns  string
}

func startAPIServer(t *testing.T) *apiServer {
	t.Helper()
	return startPolling(t, time.Hour)
}

// startPolling is startAPIServer with controllers that poll every poll.
func startPolling(t *testing.T, poll time.Duration) *apiServer {
	t.Helper()
	return startObserved(t, poll, nil)
}

// startObserved is startPolling with the manager's requests to the API
// server recorded in requests (when not nil).
func startObserved(t *testing.T, poll time.Duration, requests *testenv.RequestLog) *apiServer {
	t.Helper()
	s := &apiServer{rfs: rustfstest.NewServer(rustfstest.WithRootCredentials(adminAK, adminSK)), ns: "bucket-" + rand.String(5)}
	t.Cleanup(s.rfs.Close)
	s.rfs.CreateBucket("existing", false)
	s.rfs.CreateBucket("locked", true)
	for _, n := range []string{s.ns, systemNS} {
		if err := env.Client.Create(ctx(t), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}}); err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	objs := clusterConfig(s.ns, s.rfs.URL(), "")
	objs[1].SetName(adminSecret + "-" + s.ns)
	objs[0].(*v1alpha1.ClusterProviderConfig).Spec.Credentials.SecretRef.Name = adminSecret + "-" + s.ns
	for _, o := range objs {
		if err := env.Client.Create(ctx(t), o); err != nil {
			t.Fatal(err)
		}
	}
	env.StartManagerObserved(t, os.Stderr, requests, options.ControllerSettings{Poll: poll}, Setup)
	return s
}

// apply creates a Bucket the way a user does: the controller sets the
// external name from metadata.name and the CRD defaults the policies.
func (s *apiServer) apply(t *testing.T, name string, m ...bucketModifier) *v1alpha1.Bucket {
	t.Helper()
	b := bucket()
	b.ObjectMeta = metav1.ObjectMeta{Namespace: s.ns, Name: name}
	b.Spec.ManagementPolicies = nil
	withProviderConfig(s.ns)(b)
	for _, f := range m {
		f(b)
	}
	if err := env.Client.Create(ctx(t), b); err != nil {
		t.Fatalf("cannot create Bucket %s: %v", name, err)
	}
	return b
}

// waitFor waits for the Ready condition of the Bucket named name.
func (s *apiServer) waitFor(t *testing.T, name, want string) *v1alpha1.Bucket {
	t.Helper()
	got := &v1alpha1.Bucket{}
	gomega.NewWithT(t).Eventually(func() string {
		if err := env.Client.Get(ctx(t), client.ObjectKey{Namespace: s.ns, Name: name}, got); err != nil {
			return err.Error()
		}
		return condition(got)
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.Equal(want), "Ready of Bucket %s", name)
	return got
}

// TestBucketOnAPIServer shares one API server, manager and emulator
// between its subtests, but each subtest writes only Buckets of its own
// names and counts only requests to them, so each runs alone
// (-run TestBucketOnAPIServer/Name) and in any order.
func TestBucketOnAPIServer(t *testing.T) {
	testenv.Skip(t)
	s := startAPIServer(t)
	t.Run("CreateAndAdopt", s.createAndAdopt)
	t.Run("VersioningUpdate", s.versioningUpdate)
	t.Run("ObjectLockImmutable", s.objectLockImmutable)
	t.Run("BucketConflict", s.bucketConflict)
	t.Run("InvalidBucketName", s.invalidBucketName)
}

func (s *apiServer) createAndAdopt(t *testing.T) {
	s.apply(t, "fresh", withVersioning(v1alpha1.VersioningEnabled))
	s.apply(t, "existing")
	fresh, existing := s.waitFor(t, "fresh", isReady), s.waitFor(t, "existing", isReady)
	if fresh.Status.AtProvider.Adopted || !existing.Status.AtProvider.Adopted {
		t.Errorf("adopted: want fresh false and existing true, got %t and %t",
			fresh.Status.AtProvider.Adopted, existing.Status.AtProvider.Adopted)
	}
	if n, m := s.requests("fresh", rustfstest.RouteCreateBucket), s.requests("existing", rustfstest.RouteCreateBucket); n != 1 || m != 0 {
		t.Errorf("buckets created: want fresh once and existing never, got %d and %d", n, m)
	}
	if got := s.rfs.BucketVersioning("fresh"); got != "Enabled" {
		t.Errorf("versioning of fresh: want Enabled, got %q", got)
	}
}

func (s *apiServer) versioningUpdate(t *testing.T) {
	s.apply(t, "versioned", withVersioning(v1alpha1.VersioningEnabled))
	b := s.waitFor(t, "versioned", isReady)
	if err := env.Edit(ctx(t), b, func() { b.Spec.ForProvider.Versioning = v1alpha1.VersioningSuspended }); err != nil {
		t.Fatal(err)
	}
	gomega.NewWithT(t).Eventually(func() string { return s.rfs.BucketVersioning("versioned") }, 5*time.Second, 50*time.Millisecond).
		Should(gomega.Equal("Suspended"))
}

func (s *apiServer) objectLockImmutable(t *testing.T) {
	s.apply(t, "unlocked")
	b := s.waitFor(t, "unlocked", isReady)
	b.Spec.ForProvider.ObjectLock = true
	if err := env.Client.Update(ctx(t), b); err == nil || !strings.Contains(err.Error(), "objectLock is immutable") {
		t.Errorf("changing objectLock: want it rejected as immutable, got %v", err)
	}
}

// requests counts the requests to bucket name, on any of routes if given.
func (s *apiServer) requests(name string, routes ...string) int {
	n := 0
	for _, r := range s.rfs.Requests() {
		if r.Path != "/"+name && !strings.HasPrefix(r.Path, "/"+name+"/") {
			continue
		}
		if len(routes) == 0 || slices.Contains(routes, r.Route) {
			n++
		}
	}
	return n
}

func (s *apiServer) bucketConflict(t *testing.T) {
	s.apply(t, "locked")
	got := s.waitFor(t, "locked", "False/BucketConflict")
	if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "spec.forProvider.objectLock: live true, desired false") {
		t.Errorf("BucketConflict does not name the field: %q", msg)
	}
	if w := s.requests("locked", rustfstest.RouteCreateBucket, rustfstest.RoutePutVersioning); w != 0 {
		t.Errorf("conflict: want no writes, got %d", w)
	}
}

func (s *apiServer) invalidBucketName(t *testing.T) {
	s.apply(t, "bad", withExternalName("bad..name"))
	got := s.waitFor(t, "bad", "False/InvalidBucketName")
	if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "two adjacent periods") {
		t.Errorf("InvalidBucketName does not name the rule: %q", msg)
	}
	if n := s.requests("bad..name"); n != 0 {
		t.Errorf("invalid name: want no request to RustFS, got %d", n)
	}
}
