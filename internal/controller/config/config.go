// Package config runs the controllers that count the users of
// ProviderConfigs and ClusterProviderConfigs.
package config

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/providerconfig"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// SetupGated sets up both usage controllers once the CRDs they need exist.
func SetupGated(mgr ctrl.Manager, o options.Options) error {
	o.Gated("providerconfig", func() error { return Setup(mgr, o) },
		v1alpha1.ProviderConfigGroupVersionKind,
		v1alpha1.ClusterProviderConfigGroupVersionKind,
		v1alpha1.ProviderConfigUsageGroupVersionKind)
	return nil
}

// Setup adds the controllers that account for the usage of ProviderConfigs
// and ClusterProviderConfigs. One ProviderConfigUsage kind records both.
// They never reach RustFS, and every new managed resource adds a usage, so
// they take a token only when no managed reconcile waits for one, and
// count a config's users once per usageSettle of usage events: a burst of
// creates is not slowed by recounting its ProviderConfig's users.
func Setup(mgr ctrl.Manager, o options.Options) error {
	if err := setup(mgr, o, &v1alpha1.ProviderConfig{}, v1alpha1.ProviderConfigGroupKind, v1alpha1.ProviderConfigGroupVersionKind); err != nil {
		return err
	}
	return setup(mgr, o, &v1alpha1.ClusterProviderConfig{}, v1alpha1.ClusterProviderConfigGroupKind, v1alpha1.ClusterProviderConfigGroupVersionKind)
}

func setup(mgr ctrl.Manager, o options.Options, pc resource.ProviderConfig, groupKind string, gvk schema.GroupVersionKind) error {
	name := providerconfig.ControllerName(groupKind)
	of := resource.ProviderConfigKinds{
		Config:    gvk,
		Usage:     v1alpha1.ProviderConfigUsageGroupVersionKind,
		UsageList: v1alpha1.ProviderConfigUsageListGroupVersionKind,
	}
	r := providerconfig.NewReconciler(mgr, of,
		providerconfig.WithLogger(o.Logger.WithValues("controller", name)),
		providerconfig.WithRecorder(o.Recorder(mgr, name)))

	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(o.ForControllerRuntime()).
		For(pc).
		Watches(&v1alpha1.ProviderConfigUsage{}, coalesced{inner: &resource.EnqueueRequestForProviderConfig{Kind: gvk.Kind}, after: usageSettle}).
		Complete(o.LimitBackground(name, r))
}
