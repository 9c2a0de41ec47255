package tier

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// Field indexes on Tiers.
const (
	// indexTierName indexes Tiers by the RustFS tier they name, to find
	// duplicates.
	indexTierName = "spec.forProvider.name"

	// indexSecretName indexes Tiers by their credentials Secret, to
	// reconcile them when it changes.
	indexSecretName = "spec.forProvider.credentialsSecretRef.name"
)

// indexers are the field indexes the controller reads through, each with
// the scope of its lists: Tiers by tier name are listed across all
// namespaces (tiersNaming), Tiers by Secret in the
// Secret's namespace (tiersUsingSecret).
var indexers = map[string]struct {
	fn    client.IndexerFunc
	scope custody.Scope
}{
	indexTierName: {scope: custody.AllNamespaces, fn: func(o client.Object) []string {
		t, ok := o.(*v1alpha1.Tier)
		if !ok || t.Spec.ForProvider.Name == "" {
			return nil
		}
		return []string{t.Spec.ForProvider.Name}
	}},
	indexSecretName: {scope: custody.OwnNamespace, fn: func(o client.Object) []string {
		t, ok := o.(*v1alpha1.Tier)
		if !ok || t.Spec.ForProvider.CredentialsSecretRef.Name == "" {
			return nil
		}
		return []string{t.Spec.ForProvider.CredentialsSecretRef.Name}
	}},
}

// addIndexes registers the controller's field indexes, and the index of
// Tiers by ProviderConfig that the tenancy watches read.
func addIndexes(ctx context.Context, fi client.FieldIndexer, s *custody.Shared) error {
	for field, ix := range indexers {
		if err := s.Index(ctx, fi, &v1alpha1.Tier{}, field, ix.fn, ix.scope); err != nil {
			return err
		}
	}
	return s.Index(ctx, fi, &v1alpha1.Tier{}, custody.IndexProviderConfig, custody.IndexByProviderConfig, custody.ProviderConfigScope)
}

// tiersUsingSecret maps a Secret (seen as metadata only) to the Tiers in
// its namespace whose credentials it holds.
func tiersUsingSecret(kube client.Reader, log logging.Logger) handler.MapFunc {
	return func(ctx context.Context, s client.Object) []reconcile.Request {
		l := &v1alpha1.TierList{}
		if err := kube.List(ctx, l, client.InNamespace(s.GetNamespace()), client.MatchingFields{indexSecretName: s.GetName()}); err != nil {
			log.Info("Cannot list the Tiers that use a Secret", "namespace", s.GetNamespace(), "secret", s.GetName(), "error", err)
			return nil
		}
		return custody.Requests(l, "")
	}
}
