package tier

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
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

// indexers are the field indexes the controller reads through.
var indexers = map[string]client.IndexerFunc{
	indexTierName: func(o client.Object) []string {
		t, ok := o.(*v1alpha1.Tier)
		if !ok || t.Spec.ForProvider.Name == "" {
			return nil
		}
		return []string{t.Spec.ForProvider.Name}
	},
	indexSecretName: func(o client.Object) []string {
		t, ok := o.(*v1alpha1.Tier)
		if !ok || t.Spec.ForProvider.CredentialsSecretRef.Name == "" {
			return nil
		}
		return []string{t.Spec.ForProvider.CredentialsSecretRef.Name}
	},
}

// addIndexes registers the controller's field indexes.
func addIndexes(ctx context.Context, fi client.FieldIndexer) error {
	for field, fn := range indexers {
		if err := fi.IndexField(ctx, &v1alpha1.Tier{}, field, fn); err != nil {
			return errors.Wrapf(err, "cannot index Tiers by %s", field)
		}
	}
	return nil
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
		return requests(l, "")
	}
}

// peersOf maps a Tier to the other Tiers naming the same RustFS tier, so
// that when the owner of a tier name goes away the next one takes over
// without waiting for a poll.
func peersOf(kube client.Reader, log logging.Logger) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		t, ok := o.(*v1alpha1.Tier)
		if !ok || t.Spec.ForProvider.Name == "" {
			return nil
		}
		l := &v1alpha1.TierList{}
		if err := kube.List(ctx, l, client.MatchingFields{indexTierName: t.Spec.ForProvider.Name}); err != nil {
			log.Info("Cannot list the Tiers that name a tier", "tier", t.Spec.ForProvider.Name, "error", err)
			return nil
		}
		return requests(l, t.GetUID())
	}
}

// requests returns a request for every Tier in l except the one with UID skip.
func requests(l *v1alpha1.TierList, skip types.UID) []reconcile.Request {
	out := make([]reconcile.Request, 0, len(l.Items))
	for i := range l.Items {
		if skip != "" && l.Items[i].GetUID() == skip {
			continue
		}
		out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&l.Items[i])})
	}
	return out
}

// leaving passes the events of a Tier that stops owning its tier name: it
// is marked for deletion, or deleted.
func leaving() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
		DeleteFunc:  func(event.DeleteEvent) bool { return true },
		UpdateFunc: func(e event.UpdateEvent) bool {
			return e.ObjectOld != nil && e.ObjectNew != nil &&
				e.ObjectOld.GetDeletionTimestamp() == nil && e.ObjectNew.GetDeletionTimestamp() != nil
		},
	}
}
