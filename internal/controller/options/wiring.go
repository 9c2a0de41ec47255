package options

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// A Kind is what the controller of one managed kind tells Wire about the
// kind: everything else of its wiring is the same for every kind.
type Kind struct {
	// GroupKind names the controller (managed.ControllerName).
	GroupKind string
	GVK       schema.GroupVersionKind
	// New returns a new, empty resource of the kind; List a new, empty
	// list of it.
	New  func() custody.Subject
	List func() client.ObjectList
	// Names are the RustFS names a resource of the kind writes or refers
	// to, which the tenancy rules check (custody.Screen).
	Names func(s custody.Subject) custody.Names
	// Index registers the field indexes the kind's controller reads.
	Index func(ctx context.Context, fi client.FieldIndexer, s *custody.Shared) error
	// Conditions are the conditions whose True count the state metrics
	// report for the kind (RecordState).
	Conditions []xpv2.ConditionType
}

// A Wiring holds what every managed kind's controller builds the same way:
// its name, logger and event recorder, the custody Gate its connector
// opens connections through, and whether the tenancy rules may read
// Namespaces.
type Wiring struct {
	Kind
	Name     string
	Kube     client.Client
	Uncached client.Reader
	Log      logging.Logger
	Record   event.Recorder
	Gate     *custody.Gate
	// Namespaces reads Namespaces' metadata from the cache, as the Gate
	// does.
	Namespaces custody.Namespaces
	// Refused, when set before Complete, is the Screen's hook for refused
	// resources (custody.Screen Refused).
	Refused func(ctx context.Context, s custody.Subject, t *connection.Target, r *custody.Refusal) error

	mgr      ctrl.Manager
	o        Options
	nsAccess bool
}

// Wire registers the kind's field indexes and state metrics, then builds
// the dependencies every managed kind's controller shares.
func (o Options) Wire(mgr ctrl.Manager, k Kind) (*Wiring, error) {
	ctx := context.Background()
	if err := k.Index(ctx, mgr.GetFieldIndexer(), o.Custody); err != nil {
		return nil, err
	}
	if err := o.Custody.Index(ctx, mgr.GetFieldIndexer(), k.New(), custody.IndexObject, k.objects, custody.OwnNamespace); err != nil {
		return nil, err
	}
	if err := o.RecordState(mgr, k.New(), k.Conditions...); err != nil {
		return nil, err
	}
	kube := mgr.GetClient()
	nsAccess := o.Custody.NamespaceAccess(ctx, kube, o.Logger)
	ns := custody.Namespaces{Reader: kube, Allowed: nsAccess}
	res := connection.NewResolver(kube, mgr.GetAPIReader(),
		resource.NewProviderConfigUsageTracker(kube, &v1alpha1.ProviderConfigUsage{}))
	name := managed.ControllerName(k.GroupKind)
	return &Wiring{Kind: k, Name: name, Kube: kube, Uncached: mgr.GetAPIReader(), Log: o.Logger.WithValues("controller", name),
		Record: o.Recorder(mgr, name),
		Gate:   custody.NewGate(kube, res, ns), Namespaces: ns, mgr: mgr, o: o, nsAccess: nsAccess}, nil
}

// Reconciler returns the kind's managed reconciler, with the options every
// kind uses (Options.Managed) then opts, admitted by the global Limiter. Its
// status updates that would change nothing are skipped (quietManager), and
// a pass that creates stores the finalizer with the create-pending
// annotation (creatingFinalizer) when the kind's connector is given with
// Connector.
func (w *Wiring) Reconciler(opts ...managed.ReconcilerOption) reconcile.Reconciler {
	opts = append([]managed.ReconcilerOption{
		managed.WithReferenceResolver(NewLocalResolver(w.mgr.GetClient())),
		managed.WithFinalizer(creatingFinalizer{Finalizer: custody.NewReleasingFinalizer(w.Kube, w.Custodian(), w.List)}),
	}, opts...)
	r := managed.NewReconciler(quietManager{Manager: w.mgr, record: w.Record}, resource.ManagedKind(w.GVK), append(w.o.Managed(w.mgr, w.Name), opts...)...)
	return w.o.Limit(w.Name, r)
}

// Custodian reads custody records past the cache and writes them.
func (w *Wiring) Custodian() custody.Custodian {
	return custody.Custodian{Store: custody.Store{Kube: w.Kube, Reader: w.Uncached}, Identify: custody.ByClient(w.o.NewClient), Now: time.Now}
}

// objects is the IndexObject indexer of the kind: the RustFS object a
// resource holds or would hold a custody record of, its tier name or its
// bucket.
func (k Kind) objects(o client.Object) []string {
	s, ok := o.(custody.Subject)
	if !ok {
		return nil
	}
	n := k.Names(s)
	for _, names := range [][]string{n.Tiers, n.Buckets} {
		if len(names) > 0 && names[0] != "" {
			return names[:1]
		}
	}
	return nil
}

// Builder returns the controller builder for the kind's resources, which
// it reconciles when their desired state changes and preds all pass.
func (w *Wiring) Builder(preds ...predicate.Predicate) *builder.Builder {
	return ctrl.NewControllerManagedBy(w.mgr).
		Named(w.Name).
		WithOptions(w.o.ForControllerRuntime()).
		For(w.New(), builder.WithPredicates(append([]predicate.Predicate{custody.DesiredStateChanged()}, preds...)...))
}

// Complete adds the tenancy inputs' watches (custody.Watch) to b and
// completes it with inner behind the tenancy rules (custody.Screen).
func (w *Wiring) Complete(b *builder.Builder, inner reconcile.Reconciler) error {
	cw := custody.Watch{Kube: w.Kube, List: w.List, Log: w.Log, Kind: v1alpha1.CustodyKind(w.GVK.Kind)}
	return cw.Setup(b, w.nsAccess).Complete(&custody.Screen{Kube: w.Kube, Gate: w.Gate, Poll: w.o.PollInterval, Names: w.Names,
		New: w.New, Inner: inner, Refused: w.Refused})
}
