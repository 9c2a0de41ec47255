package custody

import (
	"context"
	"fmt"
	"sync"

	authorizationv1 "k8s.io/api/authorization/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
)

// Shared is what the controllers of one manager share: one check of the
// provider's access to Namespaces, and one registration of each field
// index that several controllers read. It is safe for concurrent use.
type Shared struct {
	mu      sync.Mutex
	indexed map[string]bool
	checked bool
	allowed bool
}

// NewShared returns a Shared for one manager.
func NewShared() *Shared { return &Shared{indexed: map[string]bool{}} }

// Index registers fn as the index field of objects of obj's type, unless
// it is registered already. The index answers only the lists of scope
// (indexOnce).
func (s *Shared) Index(ctx context.Context, fi client.FieldIndexer, obj client.Object, field string, fn client.IndexerFunc, scope Scope) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := fmt.Sprintf("%T/%s", obj, field)
	if s.indexed[k] {
		return nil
	}
	if err := indexOnce(ctx, fi, obj, field, fn, scope); err != nil {
		return errors.Wrapf(err, "cannot index %T by %s", obj, field)
	}
	s.indexed[k] = true
	return nil
}

// NamespaceAccess reports whether the provider may get, list and watch
// Namespaces, asking the API server once. Crossplane v2 grants a provider
// only its own kinds, Secrets, ConfigMaps, Events and Leases; the platform
// grants Namespaces (docs/multi-tenancy.md). Without that access the
// provider does not watch Namespaces, and refuses resources whose
// ClusterProviderConfig selects namespaces by label. A check that fails is
// logged, answers no access (the provider still starts), and is asked
// again next time.
func (s *Shared) NamespaceAccess(ctx context.Context, c client.Client, log logging.Logger) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checked {
		return s.allowed
	}
	for _, verb := range []string{"get", "list", "watch"} {
		r := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: verb, Resource: "namespaces"},
		}}
		if err := c.Create(ctx, r); err != nil {
			log.Info("Cannot ask whether the provider may read Namespaces; ClusterProviderConfigs that select namespaces by label refuse every namespace", "error", err)
			return false
		}
		if !r.Status.Allowed {
			log.Info("The provider may not get, list and watch Namespaces; ClusterProviderConfigs that select namespaces by label refuse every namespace (docs/multi-tenancy.md)")
			s.checked = true
			return false
		}
	}
	s.checked, s.allowed = true, true
	return true
}

// IndexKind registers, for objects of obj's type T, one field index per
// entry of fields, each extracting its values from a T and read by lists
// across all namespaces, and the index by ProviderConfig that the tenancy
// watches read (Watch).
func IndexKind[T client.Object](ctx context.Context, s *Shared, fi client.FieldIndexer, obj T, fields map[string]func(T) []string) error {
	for field, fn := range fields {
		extract := func(o client.Object) []string {
			cr, ok := o.(T)
			if !ok {
				return nil
			}
			return fn(cr)
		}
		if err := s.Index(ctx, fi, obj, field, extract, AllNamespaces); err != nil {
			return err
		}
	}
	return s.Index(ctx, fi, obj, IndexProviderConfig, IndexByProviderConfig, ProviderConfigScope)
}
