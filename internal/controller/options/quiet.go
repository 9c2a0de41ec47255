package options

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/api/equality"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// A quietManager is a manager whose client skips the status updates that
// would change nothing. crossplane-runtime's managed reconciler ends every
// pass with a status update, so every poll of a resource whose external
// resource is as it should be sent one to the API server. A status update
// the API server refuses is reported as an event (the managed reconciler
// only returns the error, which reaches the log).
type quietManager struct {
	ctrl.Manager
	record event.Recorder
}

func (m quietManager) GetClient() client.Client {
	return quietClient{Client: m.Manager.GetClient(), record: m.record}
}

type quietClient struct {
	client.Client
	record event.Recorder
}

func (c quietClient) Status() client.SubResourceWriter {
	return quietStatus{SubResourceWriter: c.Client.Status(), cache: c.Client, record: c.record}
}

// quietStatus updates status unless the object is, in every field, what the
// cache holds at the same resourceVersion. The API server would store
// nothing for such an update, or refuse it with a conflict when it holds a
// newer version: either way the update changes nothing.
type quietStatus struct {
	client.SubResourceWriter
	cache  client.Reader
	record event.Recorder
}

func (s quietStatus) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if len(opts) == 0 && s.unchanged(ctx, obj) {
		return nil
	}
	err := s.SubResourceWriter.Update(ctx, obj, opts...)
	if err != nil && !kerrors.IsConflict(err) && !kerrors.IsNotFound(err) {
		s.record.Event(obj, event.Warning(reasonCannotUpdateStatus, errors.Wrap(err, "cannot update the resource's status")))
	}
	return err
}

// reasonCannotUpdateStatus is the reason of the event of a refused status
// update.
const reasonCannotUpdateStatus event.Reason = "CannotUpdateManagedResourceStatus"

func (s quietStatus) unchanged(ctx context.Context, obj client.Object) bool {
	cached, ok := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(client.Object)
	if !ok || s.cache.Get(ctx, client.ObjectKeyFromObject(obj), cached) != nil {
		return false
	}
	return cached.GetResourceVersion() == obj.GetResourceVersion() && equality.Semantic.DeepEqual(cached, obj)
}

// A creatingFinalizer adds the managed resource finalizer in memory only
// when the pass is about to create the external resource: the managed
// reconciler's next step is then the Update that sets the create-pending
// annotation, which stores the finalizer too, before anything is created.
// Every other pass adds it through Finalizer. One write less per new
// resource, on the client limit every resource of the kind shares.
type creatingFinalizer struct {
	resource.Finalizer
}

func (f creatingFinalizer) AddFinalizer(ctx context.Context, obj resource.Object) error {
	mg, ok := obj.(resource.Managed)
	if ok && absent(ctx) && willCreate(mg) && !meta.FinalizerExists(obj, managed.FinalizerName) {
		meta.AddFinalizer(obj, managed.FinalizerName)
		return nil
	}
	return f.Finalizer.AddFinalizer(ctx, obj)
}

// willCreate is the managed reconciler's policy.ShouldCreate: management
// policies are always enabled (Options.Managed).
func willCreate(mg resource.Managed) bool {
	return managed.NewManagementPoliciesResolver(true, mg.GetManagementPolicies()).
		ShouldCreate()
}

// absent reports whether the pass of ctx observed that the external
// resource does not exist (observing).
func absent(ctx context.Context) bool {
	p := passOf(ctx)
	return p != nil && p.absent
}

// observing is a connector whose clients note in the pass when Observe
// found no external resource, for creatingFinalizer.
type observing[T resource.Managed] struct {
	managed.TypedExternalConnector[T]
}

// Connector returns the reconciler option of c's connector, whose passes
// tell creatingFinalizer when a create follows.
func Connector[T resource.Managed](c managed.TypedExternalConnector[T]) managed.ReconcilerOption {
	return managed.WithTypedExternalConnector[T](observing[T]{TypedExternalConnector: c})
}

func (o observing[T]) Connect(ctx context.Context, mg T) (managed.TypedExternalClient[T], error) {
	c, err := o.TypedExternalConnector.Connect(ctx, mg)
	if err != nil {
		return nil, err
	}
	return observed[T]{TypedExternalClient: c}, nil
}

type observed[T resource.Managed] struct {
	managed.TypedExternalClient[T]
}

func (c observed[T]) Observe(ctx context.Context, mg T) (managed.ExternalObservation, error) {
	o, err := c.TypedExternalClient.Observe(ctx, mg)
	if p := passOf(ctx); p != nil {
		p.absent = err == nil && !o.ResourceExists
	}
	return o, err
}

// NameAsExternalName is crossplane-runtime's managed.NameAsExternalName,
// except that a resource without the managed finalizer gets the annotation
// in memory only: the pass stores it with the finalizer (creatingFinalizer
// or the finalizer's own update), before anything is created. One write
// less per new resource.
func NameAsExternalName(kube client.Client) managed.Initializer {
	return managed.InitializerFn(func(ctx context.Context, mg resource.Managed) error {
		if meta.GetExternalName(mg) != "" {
			return nil
		}
		meta.SetExternalName(mg, mg.GetName())
		if !meta.FinalizerExists(mg, managed.FinalizerName) {
			return nil
		}
		return errors.Wrap(kube.Update(ctx, mg), "cannot set the external name")
	})
}
