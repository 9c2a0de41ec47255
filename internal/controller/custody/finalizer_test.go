package custody

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func TestAddFinalizerKeepsObservedStatus(t *testing.T) {
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	stored := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "cold"}}
	stored.Status.SetConditions(xpv2.Unavailable().WithMessage("stale"))
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(stored).WithStatusSubresource(stored).Build()
	ctx := context.Background()

	// What Observe leaves in memory on the first successful reconcile.
	cr := &v1alpha1.Tier{}
	if err := kube.Get(ctx, client.ObjectKeyFromObject(stored), cr); err != nil {
		t.Fatal(err)
	}
	cr.Status.SetConditions(xpv2.Available())
	cr.Status.AtProvider.Prefix = "live/"

	if err := NewFinalizer(kube).AddFinalizer(ctx, cr); err != nil {
		t.Fatal(err)
	}
	if c := cr.Status.GetCondition(xpv2.TypeReady); c.Reason != xpv2.ReasonAvailable || cr.Status.AtProvider.Prefix != "live/" {
		t.Errorf("AddFinalizer(...): the observed status was replaced: Ready %s/%s, prefix %q", c.Status, c.Reason, cr.Status.AtProvider.Prefix)
	}
	got := &v1alpha1.Tier{}
	if err := kube.Get(ctx, client.ObjectKeyFromObject(stored), got); err != nil {
		t.Fatal(err)
	}
	if !meta.FinalizerExists(got, managed.FinalizerName) || !meta.FinalizerExists(cr, managed.FinalizerName) {
		t.Errorf("AddFinalizer(...): finalizer missing: stored %v, in memory %v", got.Finalizers, cr.Finalizers)
	}
	if got.ResourceVersion != cr.ResourceVersion {
		t.Errorf("AddFinalizer(...): want resourceVersion %s in memory, got %s", got.ResourceVersion, cr.ResourceVersion)
	}
	// The status update that follows in the reconciler must not conflict.
	if err := kube.Status().Update(ctx, cr); err != nil {
		t.Errorf("status update after AddFinalizer: %v", err)
	}
}
