package bucketlifecycle

import (
	"context"
	"fmt"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/notify/notifytest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// A harness is a RustFS emulator served over HTTP, a fake API server holding
// the ClusterProviderConfig, its Secret and the BucketLifecycles, and a
// connector wired to them as Setup wires it.
type harness struct {
	t      *testing.T
	rfs    *rustfstest.Server
	kube   client.Client
	events notifytest.Recorder
}

// newHarness starts an emulator with the sentinel root credentials and the
// bucket app-data.
func newHarness(t *testing.T, opts ...rustfstest.Option) *harness {
	t.Helper()
	opts = append([]rustfstest.Option{rustfstest.WithRootCredentials(adminAK, adminSK)}, opts...)
	h := &harness{t: t, rfs: rustfstest.NewServer(opts...)}
	t.Cleanup(h.rfs.Close)
	h.rfs.CreateBucket(bucketName, false)
	h.kube = fakeKube(t, clusterConfig("default", h.rfs.URL())...)
	return h
}

func (h *harness) connector() *connector {
	r := connection.NewResolver(h.kube, h.kube, resource.ModernTrackerFn(func(context.Context, resource.ModernManaged) error { return nil }))
	return &connector{kube: h.kube, uncached: h.kube, identify: custody.ByEndpoint, now: time.Now, newClient: newClient, record: &h.events,
		gate: custody.NewGate(h.kube, r, custody.Namespaces{Reader: h.kube, Allowed: true})}
}

// addConfig adds a ClusterProviderConfig for endpoint with the same Secret.
func (h *harness) addConfig(name, endpoint string) {
	h.t.Helper()
	if err := h.kube.Create(ctx(h.t), clusterConfig(name, endpoint)[0]); err != nil {
		h.t.Fatal(err)
	}
}

// storeReady creates Tiers or Buckets in the fake API server, Ready, as
// their controllers would make them.
func (h *harness) storeReady(objs ...client.Object) {
	h.t.Helper()
	for _, o := range objs {
		if err := h.kube.Create(ctx(h.t), o); err != nil {
			h.t.Fatal(err)
		}
		o.(interface{ SetConditions(...xpv2.Condition) }).SetConditions(xpv2.Available())
		if err := h.kube.Status().Update(ctx(h.t), o); err != nil {
			h.t.Fatal(err)
		}
	}
}

// store creates cr in the fake API server and returns the stored object.
func (h *harness) store(cr *v1alpha1.BucketLifecycle) *v1alpha1.BucketLifecycle {
	h.t.Helper()
	if err := h.kube.Create(ctx(h.t), cr); err != nil {
		h.t.Fatalf("cannot create BucketLifecycle: %v", err)
	}
	return h.fetch(cr)
}

func (h *harness) fetch(cr *v1alpha1.BucketLifecycle) *v1alpha1.BucketLifecycle {
	h.t.Helper()
	got := &v1alpha1.BucketLifecycle{}
	if err := h.kube.Get(ctx(h.t), client.ObjectKeyFromObject(cr), got); err != nil {
		h.t.Fatalf("cannot get BucketLifecycle: %v", err)
	}
	return got
}

// edit changes the stored spec, bumping the generation as the API server
// does, and returns the stored object.
func (h *harness) edit(cr *v1alpha1.BucketLifecycle, fn func(*v1alpha1.BucketLifecycle)) *v1alpha1.BucketLifecycle {
	h.t.Helper()
	got := h.fetch(cr)
	fn(got)
	got.Generation++
	if err := h.kube.Update(ctx(h.t), got); err != nil {
		h.t.Fatalf("cannot update BucketLifecycle: %v", err)
	}
	return h.fetch(got)
}

// reconcile drives one reconcile of the stored cr the way the managed
// reconciler does, and returns the stored result and the phase it ended in
// ("observe" on an Observe error, "create", "update" or "none").
// Status set in Observe and Update is stored; after Create only the
// annotations are stored, as the reconciler's critical-annotation update
// does, and status set in Create is lost.
func (h *harness) reconcile(cr *v1alpha1.BucketLifecycle) (*v1alpha1.BucketLifecycle, string, error) {
	h.t.Helper()
	cr = h.fetch(cr)
	// The managed reconciler resolves references before it connects.
	if err := options.NewLocalResolver(h.kube).ResolveReferences(ctx(h.t), cr); err != nil {
		return cr, "resolve", err
	}
	e, err := h.connector().Connect(ctx(h.t), cr)
	if err != nil {
		h.t.Fatalf("Connect: %v", err)
	}
	phase := "none"
	o, err := e.Observe(ctx(h.t), cr)
	switch {
	case err != nil:
		phase = "observe"
	case !o.ResourceExists:
		phase = "create"
		_, err = e.Create(ctx(h.t), cr)
		h.check(cr, err)
		return h.saveAnnotations(cr), phase, err
	case !o.ResourceUpToDate:
		phase = "update"
		_, err = e.Update(ctx(h.t), cr)
	}
	h.check(cr, err)
	if serr := h.kube.Status().Update(ctx(h.t), cr); serr != nil {
		h.t.Fatalf("cannot store status: %v", serr)
	}
	return h.fetch(cr), phase, err
}

func (h *harness) saveAnnotations(cr *v1alpha1.BucketLifecycle) *v1alpha1.BucketLifecycle {
	h.t.Helper()
	stored := h.fetch(cr)
	stored.SetAnnotations(cr.GetAnnotations())
	if err := h.kube.Update(ctx(h.t), stored); err != nil {
		h.t.Fatalf("cannot store annotations: %v", err)
	}
	return h.fetch(stored)
}

// converge reconciles until nothing is written or n reconciles ran.
func (h *harness) converge(cr *v1alpha1.BucketLifecycle, n int) *v1alpha1.BucketLifecycle {
	h.t.Helper()
	for range n {
		got, phase, err := h.reconcile(cr)
		if err != nil {
			h.t.Fatalf("reconcile (%s): %v", phase, err)
		}
		cr = got
		if phase == "none" {
			return cr
		}
	}
	h.t.Fatalf("no convergence after %d reconciles", n)
	return nil
}

func (h *harness) check(cr *v1alpha1.BucketLifecycle, err error) {
	h.t.Helper()
	if err != nil {
		assertNoSecret(h.t, "error", err.Error())
	}
	assertNoSecret(h.t, "BucketLifecycle status and annotations", statusText(h.t, cr))
	assertNoSecret(h.t, "emulator request log", fmt.Sprint(h.rfs.Requests()))
}

// liveXML returns the configuration the emulator stores, as GET renders it.
func (h *harness) liveXML() string {
	b, ok := h.rfs.Lifecycle(bucketName)
	if !ok {
		return ""
	}
	return string(b)
}

// setLive stores a configuration out of band.
func (h *harness) setLive(body string) {
	h.t.Helper()
	if err := h.rfs.SetLifecycleXML(bucketName, []byte(body)); err != nil {
		h.t.Fatal(err)
	}
}
