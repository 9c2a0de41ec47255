package custody

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// IndexProviderConfig indexes managed resources by the ProviderConfig they
// reference: "<kind>/<name>"; a namespaced ProviderConfig is always in the
// resource's namespace.
const IndexProviderConfig = "spec.providerConfigRef"

// ProviderConfigKey is the IndexProviderConfig value of a reference.
func ProviderConfigKey(kind, name string) string { return kind + "/" + name }

// IndexByProviderConfig is the IndexProviderConfig indexer.
func IndexByProviderConfig(o client.Object) []string {
	mg, ok := o.(resource.ModernManaged)
	if !ok || mg.GetProviderConfigReference() == nil {
		return nil
	}
	ref := mg.GetProviderConfigReference()
	return []string{ProviderConfigKey(ref.Kind, ref.Name)}
}

// A Watch maps the events after which a kind's resources must decide
// again to those resources: a change of their ProviderConfig's spec, of
// their Namespace's labels, and the creation or deletion of a Namespace
// whose longer prefix may take names from theirs (naming.Slice Longer).
// Resources are listed from the cache.
type Watch struct {
	Kube client.Reader
	// List returns a new, empty list of the kind.
	List func() client.ObjectList
	Log  logging.Logger
	// Kind of the custody records the kind's resources hold; its
	// resources are indexed by their object (IndexObject).
	Kind v1alpha1.CustodyKind
}

// Setup adds the watches to b. The Namespace watches, metadata only, are
// added only when the provider may watch Namespaces.
func (w Watch) Setup(b *builder.Builder, namespaces bool) *builder.Builder {
	b = b.Watches(&v1alpha1.ClusterProviderConfig{}, handler.EnqueueRequestsFromMapFunc(w.users(v1alpha1.ClusterProviderConfigKind)),
		builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&v1alpha1.ProviderConfig{}, handler.EnqueueRequestsFromMapFunc(w.users(v1alpha1.ProviderConfigKind)),
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&v1alpha1.CustodyRecord{}, w.records())
	if namespaces {
		b = b.WatchesMetadata(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(w.namespace), builder.WithPredicates(labelsUpdated())).
			WatchesMetadata(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(w.shorter), builder.WithPredicates(createdOrDeleted()))
	}
	return b
}

// users maps a ProviderConfig of kind to the resources that use it.
func (w Watch) users(kind string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		opts := []client.ListOption{client.MatchingFields{IndexProviderConfig: ProviderConfigKey(kind, o.GetName())}}
		if kind == v1alpha1.ProviderConfigKind {
			opts = append(opts, client.InNamespace(o.GetNamespace()))
		}
		return w.requests(ctx, opts...)
	}
}

// record maps a custody record of the kind to the resources of the
// namespace that holds it, or that it is Released for, which name its
// object: one of them may now claim it, or must stop writing. They are
// read from IndexObject: a namespace may hold thousands of resources, and
// every change of a record would otherwise list them all.
func (w Watch) record(ctx context.Context, o client.Object) []reconcile.Request {
	r, ok := o.(*v1alpha1.CustodyRecord)
	ns := HolderNamespace(r)
	if !ok || r.Spec.Kind != w.Kind || ns == "" {
		return nil
	}
	return w.requests(ctx, client.InNamespace(ns), client.MatchingFields{IndexObject: r.Spec.Object})
}

// records enqueues record's requests for every event, except the holder's
// for the changes only the holder's own pass makes, which observes after
// them anyway: the record's creation (Hold) and a change of phase alone
// (Hold, Mark). Woken at once, the holder would observe again before its
// cache held the status its pass had just written.
func (w Watch) records() handler.EventHandler {
	type queue = workqueue.TypedRateLimitingInterface[reconcile.Request]
	enqueue := func(ctx context.Context, own bool, q queue, os ...client.Object) {
		for _, o := range os {
			for _, req := range w.record(ctx, o) {
				if !own || !holds(o, req) {
					q.Add(req)
				}
			}
		}
	}
	return handler.Funcs{
		CreateFunc: func(ctx context.Context, e event.CreateEvent, q queue) { enqueue(ctx, true, q, e.Object) },
		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q queue) {
			if phaseOnly(e.ObjectOld, e.ObjectNew) {
				enqueue(ctx, true, q, e.ObjectNew)
				return
			}
			enqueue(ctx, false, q, e.ObjectOld, e.ObjectNew)
		},
		DeleteFunc:  func(ctx context.Context, e event.DeleteEvent, q queue) { enqueue(ctx, false, q, e.Object) },
		GenericFunc: func(ctx context.Context, e event.GenericEvent, q queue) { enqueue(ctx, false, q, e.Object) },
	}
}

// holds reports whether req is o's holder.
func holds(o client.Object, req reconcile.Request) bool {
	r, ok := o.(*v1alpha1.CustodyRecord)
	if !ok || r.Spec.Holder == nil {
		return false
	}
	return r.Spec.Holder.Namespace == req.Namespace && r.Spec.Holder.Name == req.Name
}

// phaseOnly reports whether a record's update changed at most its phase,
// with the same holder.
func phaseOnly(old, updated client.Object) bool {
	o, ok := old.(*v1alpha1.CustodyRecord)
	n, ok2 := updated.(*v1alpha1.CustodyRecord)
	if !ok || !ok2 || o.Spec.Holder == nil {
		return false
	}
	a, b := o.Spec, n.Spec
	a.Phase = b.Phase
	return equality.Semantic.DeepEqual(a, b)
}

// namespace maps a Namespace to the resources in it.
func (w Watch) namespace(ctx context.Context, o client.Object) []reconcile.Request {
	return w.requests(ctx, client.InNamespace(o.GetName()))
}

// shorter maps a Namespace to the resources of every namespace whose
// prefix is shorter than its own: under nameScope NamespacePrefix, its
// creation takes names from their slices and its deletion gives them back.
func (w Watch) shorter(ctx context.Context, o client.Object) []reconcile.Request {
	var out []reconcile.Request
	for _, ns := range shorterNamespaces(o.GetName()) {
		out = append(out, w.requests(ctx, client.InNamespace(ns))...)
	}
	return out
}

// shorterNamespaces returns the namespaces whose slices a namespace named name takes
// names from (naming.Slice Longer): every start of name that ends right
// before a '-'.
func shorterNamespaces(name string) []string {
	var out []string
	for i := 1; i < len(name); i++ {
		if name[i] == '-' && name[i-1] != '-' {
			out = append(out, name[:i])
		}
	}
	return out
}

func (w Watch) requests(ctx context.Context, opts ...client.ListOption) []reconcile.Request {
	l := w.List()
	if err := w.Kube.List(ctx, l, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		// The cache serves this list; an error means it is not running,
		// and the poll interval still reconciles.
		w.Log.Info("Cannot list the resources to decide again", "error", err)
		return nil
	}
	return Requests(l, "")
}

// Requests returns a request for every object of l except the one with UID
// skip.
func Requests(l client.ObjectList, skip string) []reconcile.Request {
	var out []reconcile.Request
	_ = apimeta.EachListItem(l, func(obj runtime.Object) error {
		if o, ok := obj.(client.Object); ok && (skip == "" || string(o.GetUID()) != skip) {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(o)})
		}
		return nil
	})
	return out
}

// labelsUpdated passes updates that change an object's labels.
func labelsUpdated() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return false },
		DeleteFunc:  func(event.DeleteEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
		UpdateFunc:  predicate.LabelChangedPredicate{}.Update,
	}
}

// createdOrDeleted passes creations and deletions.
func createdOrDeleted() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return true },
		DeleteFunc:  func(event.DeleteEvent) bool { return true },
		GenericFunc: func(event.GenericEvent) bool { return false },
		UpdateFunc:  func(event.UpdateEvent) bool { return false },
	}
}

// CustodyChanged passes the events of a resource after which those that
// name the same object must decide again: its custody record changed, its
// deletion started, or it is gone.
func CustodyChanged() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
		DeleteFunc:  func(event.DeleteEvent) bool { return true },
		UpdateFunc: func(e event.UpdateEvent) bool {
			o, okOld := e.ObjectOld.(Subject)
			n, okNew := e.ObjectNew.(Subject)
			if !okOld || !okNew {
				return false
			}
			started := o.GetDeletionTimestamp() == nil && n.GetDeletionTimestamp() != nil
			return started || !equality.Semantic.DeepEqual(o.GetCustody(), n.GetCustody())
		},
	}
}

// IndexObject indexes a kind's resources by the RustFS object they hold or
// would hold a custody record of, for lists in their namespace (Scope
// OwnNamespace).
const IndexObject = "custody.object"

// IndexExternalName indexes managed resources by their external name, the
// RustFS name of a Bucket.
const IndexExternalName = "metadata.annotations.crossplane.io/external-name"

// IndexByExternalName is the IndexExternalName indexer.
func IndexByExternalName(o client.Object) []string {
	if n := meta.GetExternalName(o); n != "" {
		return []string{n}
	}
	return nil
}
