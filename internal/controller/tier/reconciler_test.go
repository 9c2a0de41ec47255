package tier

import (
	"fmt"
	"sync"
	"testing"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource/fake"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// debugLogger logs everything, including debug lines, to buf.
func debugLogger(buf *testenv.LogBuffer) logging.Logger {
	return logging.NewLogrLogger(zap.New(zap.WriteTo(buf), zap.UseDevMode(true)))
}

// events records the events the reconciler emits.
type events struct {
	mu  sync.Mutex
	all []event.Event
}

func (r *events) Event(_ runtime.Object, e event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, e)
}

func (r *events) WithAnnotations(...string) event.Recorder { return r }

// reconciler returns crossplane-runtime's managed reconciler configured as
// Setup configures it, over the harness's fake API server.
func (h *harness) reconciler(log logging.Logger, rec event.Recorder) *managed.Reconciler {
	m := &fake.Manager{Client: h.kube, Scheme: h.kube.Scheme()}
	return managed.NewReconciler(m, resource.ManagedKind(v1alpha1.TierGroupVersionKind),
		managed.WithTypedExternalConnector[*v1alpha1.Tier](h.connector()),
		managed.WithInitializers(&externalName{kube: h.kube}),
		managed.WithDeterministicExternalName(true),
		managed.WithManagementPolicies(),
		managed.WithLogger(log), managed.WithRecorder(rec))
}

func TestDeletedTierIsLeftInRustFS(t *testing.T) {
	cases := map[string]struct {
		reason   string
		policies xpv2.ManagementPolicies
	}{
		"RetainOnlyPolicies": {reason: "The default policies never include Delete.",
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}},
		"DeleteForced": {reason: "Even with Delete forced into the policies, the tier stays.",
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeGA)
			cr := h.store(tier(h.remote.TierURL(), withFinalizer()))
			if _, err := h.reconcile(cr); err != nil {
				t.Fatal(err)
			}
			cr = h.fetch(cr)
			cr.Spec.ManagementPolicies = tc.policies
			if err := h.kube.Update(ctx(t), cr); err != nil {
				t.Fatal(err)
			}
			if err := h.kube.Delete(ctx(t), cr); err != nil {
				t.Fatal(err)
			}
			h.local.ResetCounters()

			req := reconcile.Request{NamespacedName: client.ObjectKeyFromObject(cr)}
			if _, err := h.reconciler(logging.NewNopLogger(), &events{}).Reconcile(ctx(t), req); err != nil {
				t.Fatalf("Reconcile: %v", err)
			}
			if err := h.kube.Get(ctx(t), req.NamespacedName, &v1alpha1.Tier{}); !kerrors.IsNotFound(err) {
				t.Errorf("%s\nthe Tier was not finalized: %v", tc.reason, err)
			}
			if _, ok := h.local.Tier("COLD"); !ok {
				t.Errorf("%s\nthe RustFS tier was removed", tc.reason)
			}
			if n := h.local.Count(rustfstest.RouteRemoveTier); n != 0 || h.local.Writes() != 0 {
				t.Errorf("%s\n%d remove requests and %d writes, want none", tc.reason, n, h.local.Writes())
			}
		})
	}
}

func TestDeleteNeverCallsRustFS(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	cr := tier(h.remote.TierURL(), withDeleted())
	o, err := h.observe(cr)
	if err != nil || o.ResourceExists {
		t.Errorf("Observe of a deleted Tier: %+v, %v; want a tier that does not exist for the reconciler", o, err)
	}
	if _, err := h.connect(cr).Delete(ctx(t), cr); err != nil {
		t.Errorf("Delete: %v", err)
	}
	if n := len(h.local.Requests()); n != 0 {
		t.Errorf("%d RustFS requests, want none", n)
	}
}

func TestBlockedAddSurvivesTheManagedReconciler(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	h.remote.PutObject(remoteBkt, tierPrefix+"x", []byte("x"))
	cr := h.store(tier(h.remote.TierURL(), withFinalizer()))
	buf, rec := &testenv.LogBuffer{}, &events{}
	r := h.reconciler(debugLogger(buf), rec)
	req := reconcile.Request{NamespacedName: client.ObjectKeyFromObject(cr)}

	for range 3 {
		if _, err := r.Reconcile(ctx(t), req); err != nil {
			t.Fatalf("Reconcile: %v", err)
		}
	}
	got := h.fetch(cr)
	var b memo.Block
	if !memo.Get(got, memo.BlockKey, &b) || b.Reason != v1alpha1.ReasonBackendInUse {
		t.Fatalf("block annotation after the refused Create: %+v; want BackendInUse persisted", b)
	}
	want := map[xpv2.ConditionType]string{xpv2.TypeReady: "False/TierConflict", v1alpha1.TypeTierConflict: "True/BackendInUse", xpv2.TypeSynced: "False/ReconcileError"}
	for ct, w := range want {
		if g := get(got, ct); g != w {
			t.Errorf("%s: got %s, want %s", ct, g, w)
		}
	}
	if n := h.local.Count(rustfstest.RouteAddTier); n != 1 {
		t.Errorf("adds: got %d, want 1 (the block stops retries)", n)
	}
	assertNoSecret(t, "reconciler log", buf.String())
	assertNoSecret(t, "events", fmt.Sprint(rec.all))
	assertNoSecret(t, "Tier", statusText(t, got))
	if buf.String() == "" || len(rec.all) == 0 {
		t.Error("nothing was logged or recorded, so the secret checks prove nothing")
	}
}
