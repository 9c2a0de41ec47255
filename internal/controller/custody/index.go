package custody

import (
	"context"
	"strings"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A Scope says which lists read one value of a field index: true for
// lists in the indexed object's namespace (client.InNamespace), false for
// lists across all namespaces. An index stores each value once, in its
// scope only, so a list in the other scope finds nothing: every list of
// an index must match its Scope.
type Scope func(value string) (inNamespace bool)

// AllNamespaces is the Scope of an index that only lists across all
// namespaces read.
func AllNamespaces(string) bool { return false }

// OwnNamespace is the Scope of an index that only lists in one namespace
// read.
func OwnNamespace(string) bool { return true }

// ProviderConfigScope is the Scope of IndexProviderConfig: the users of a
// ProviderConfig are listed in its namespace, those of a
// ClusterProviderConfig across all namespaces (Watch).
func ProviderConfigScope(value string) bool {
	return strings.HasPrefix(value, v1alpha1.ProviderConfigKind+"/")
}

// These are the index name and value forms controller-runtime's cache
// reader looks up for a list with a field selector (client.MatchingFields):
// "field:<field>", and "<namespace>/<value>" in one namespace or
// "__all_namespaces/<value>" across all. TestIndexOnce lists through a
// real cache, so a change of these forms fails it.
const (
	fieldIndexPrefix = "field:"
	allNamespaces    = "__all_namespaces"
)

// indexOnce registers fn as the field index of objects of obj's type.
// controller-runtime's IndexField stores every value of a namespaced
// object twice, for lists in its namespace and across all namespaces;
// indexOnce stores it only in the form its scope's lists read, which
// halves the memory of an index with a value per object. A field indexer
// that is not controller-runtime's informer cache (a fake client) gets
// IndexField: its index answers both kinds of list.
func indexOnce(ctx context.Context, fi client.FieldIndexer, obj client.Object, field string, fn client.IndexerFunc, scope Scope) error {
	c, ok := fi.(cache.Informers)
	if !ok {
		return fi.IndexField(ctx, obj, field, fn)
	}
	i, err := c.GetInformer(ctx, obj)
	if err != nil {
		return errors.Wrapf(err, "cannot get the informer of %T", obj)
	}
	return i.AddIndexers(toolscache.Indexers{fieldIndexPrefix + field: func(o any) ([]string, error) {
		co, ok := o.(client.Object)
		if !ok {
			return nil, errors.Errorf("cannot index %T: not an object", o)
		}
		vals := fn(co)
		out := make([]string, len(vals))
		for i, v := range vals {
			out[i] = indexKey(co.GetNamespace(), v, scope)
		}
		return out, nil
	}})
}

// indexKey is the form of value v of an object in namespace ns that the
// lists of scope look up.
func indexKey(ns, v string, scope Scope) string {
	if ns != "" && scope(v) {
		return ns + "/" + v
	}
	return allNamespaces + "/" + v
}
