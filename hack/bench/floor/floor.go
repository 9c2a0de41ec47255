package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/gate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/customresourcesgate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/providerconfig"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A kind is one kind the provider reconciles, and what its controller
// watches besides it. The watches only fill the cache: they enqueue
// nothing.
type kind struct {
	name    string // the provider's controller name
	gvk     schema.GroupVersionKind
	new     func() client.Object
	watches []client.Object // watched in full
	meta    []client.Object // watched as metadata only
}

// kinds are the provider's controllers (internal/controller) and the kinds
// each watches: every managed kind the ProviderConfigs, custody records
// and Namespaces of the tenancy rules (custody.Watch), the Tier and BucketAccess kinds the
// Secrets they read.
func kinds() []kind {
	tenancy := []client.Object{&v1alpha1.ClusterProviderConfig{}, &v1alpha1.ProviderConfig{}, &v1alpha1.CustodyRecord{}}
	ns := []client.Object{&corev1.Namespace{}}
	secrets := []client.Object{&corev1.Namespace{}, &corev1.Secret{}}
	return []kind{
		{managed.ControllerName(v1alpha1.TierGroupKind), v1alpha1.TierGroupVersionKind, func() client.Object { return &v1alpha1.Tier{} }, tenancy, secrets},
		{managed.ControllerName(v1alpha1.BucketGroupKind), v1alpha1.BucketGroupVersionKind, func() client.Object { return &v1alpha1.Bucket{} }, tenancy, ns},
		{managed.ControllerName(v1alpha1.BucketLifecycleGroupKind), v1alpha1.BucketLifecycleGroupVersionKind,
			func() client.Object { return &v1alpha1.BucketLifecycle{} }, append([]client.Object{&v1alpha1.Tier{}, &v1alpha1.Bucket{}}, tenancy...), ns},
		{managed.ControllerName(v1alpha1.BucketAccessGroupKind), v1alpha1.BucketAccessGroupVersionKind,
			func() client.Object { return &v1alpha1.BucketAccess{} }, append([]client.Object{&v1alpha1.Bucket{}}, tenancy...), secrets},
		{providerconfig.ControllerName(v1alpha1.ProviderConfigGroupKind), v1alpha1.ProviderConfigGroupVersionKind,
			func() client.Object { return &v1alpha1.ProviderConfig{} }, []client.Object{&v1alpha1.ProviderConfigUsage{}}, nil},
		{providerconfig.ControllerName(v1alpha1.ClusterProviderConfigGroupKind), v1alpha1.ClusterProviderConfigGroupVersionKind,
			func() client.Object { return &v1alpha1.ClusterProviderConfig{} }, []client.Object{&v1alpha1.ProviderConfigUsage{}}, nil},
	}
}

// linked holds crossplane-runtime's reconcilers, built and never run, so
// that the binary links them as the provider's does.
var linked []reconcile.Reconciler

// setup starts crossplane-runtime's CRD gate and registers each kind's
// controller to start once its CRD and the usages' are established, as the
// provider does.
func setup(mgr ctrl.Manager, f flags) error {
	o := controller.Options{Logger: logging.NewNopLogger(), MaxConcurrentReconciles: f.rate, PollInterval: f.poll,
		Gate: new(gate.Gate[schema.GroupVersionKind])}
	if err := customresourcesgate.Setup(mgr, o); err != nil {
		return errors.Wrap(err, "cannot set up the CRD gate")
	}
	for _, k := range kinds() {
		o.Gate.Register(func() {
			if err := k.setup(mgr, o); err != nil {
				panic(errors.Wrapf(err, "cannot set up the %s controller", k.name))
			}
		}, k.gvk, v1alpha1.ProviderConfigUsageGroupVersionKind)
	}
	return nil
}

// setup adds the kind's controller, and builds the crossplane-runtime
// reconciler the provider runs for it.
func (k kind) setup(mgr ctrl.Manager, o controller.Options) error {
	if k.gvk.Kind == v1alpha1.ProviderConfigKind || k.gvk.Kind == v1alpha1.ClusterProviderConfigKind {
		linked = append(linked, providerconfig.NewReconciler(mgr, resource.ProviderConfigKinds{Config: k.gvk,
			Usage: v1alpha1.ProviderConfigUsageGroupVersionKind, UsageList: v1alpha1.ProviderConfigUsageListGroupVersionKind}))
	} else {
		linked = append(linked, managed.NewReconciler(mgr, resource.ManagedKind(k.gvk), managed.WithPollInterval(o.PollInterval)))
	}
	b := ctrl.NewControllerManagedBy(mgr).Named(k.name).WithOptions(o.ForControllerRuntime()).For(k.new())
	for _, w := range k.watches {
		b = b.Watches(w, handler.EnqueueRequestsFromMapFunc(nothing))
	}
	for _, w := range k.meta {
		b = b.WatchesMetadata(w, handler.EnqueueRequestsFromMapFunc(nothing))
	}
	return b.Complete(&reader{kube: mgr.GetClient(), new: k.new, poll: o.PollInterval})
}

// nothing maps a watched object to no request.
func nothing(context.Context, client.Object) []reconcile.Request { return nil }

// A reader reads the object of each request from the cache and asks to be
// called again after one poll interval: the least a controller does.
type reader struct {
	kube client.Reader
	new  func() client.Object
	poll time.Duration
}

// Reconcile reads the object; a deleted one is forgotten.
func (r *reader) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if err := r.kube.Get(ctx, req.NamespacedName, r.new()); err != nil {
		return reconcile.Result{}, errors.Wrap(client.IgnoreNotFound(err), "cannot read the object")
	}
	return reconcile.Result{RequeueAfter: r.poll}, nil
}
