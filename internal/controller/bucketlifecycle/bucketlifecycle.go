// Package bucketlifecycle manages the lifecycle configuration of RustFS
// buckets: it puts the rules of a BucketLifecycle, adopts a live
// configuration that already matches without writing, remembers which
// fields RustFS drops so that it never puts the same configuration in a
// loop, and never deletes the rules when the resource is deleted.
package bucketlifecycle

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// An api is the part of the RustFS client this controller uses: the
// lifecycle calls, and the tier list to name the tiers a put was refused for.
type api interface {
	rustfs.LifecycleAPI
	ListTiers(ctx context.Context) ([]rustfs.Tier, error)
}

// SetupGated sets up the controller once the CRDs it reads are established.
func SetupGated(mgr ctrl.Manager, o options.Options) error {
	o.Gated("bucketlifecycle", func() error { return Setup(mgr, o) },
		v1alpha1.BucketLifecycleGroupVersionKind, v1alpha1.BucketGroupVersionKind, v1alpha1.TierGroupVersionKind,
		v1alpha1.ProviderConfigGroupVersionKind, v1alpha1.ClusterProviderConfigGroupVersionKind,
		v1alpha1.ProviderConfigUsageGroupVersionKind)
	return nil
}

// Setup adds the BucketLifecycle controller. Besides its own resources it
// watches Tiers and Buckets, so that a lifecycle waiting for a referenced
// Tier or Bucket to become Ready is reconciled as soon as it does, and the
// tenancy inputs and custody records (custody.Watch).
func Setup(mgr ctrl.Manager, o options.Options) error {
	w, err := o.Wire(mgr, options.Kind{Index: setupIndexes, GroupKind: v1alpha1.BucketLifecycleGroupKind, GVK: v1alpha1.BucketLifecycleGroupVersionKind, Names: names,
		New:        func() custody.Subject { return &v1alpha1.BucketLifecycle{} },
		List:       func() client.ObjectList { return &v1alpha1.BucketLifecycleList{} },
		Conditions: []xpv2.ConditionType{v1alpha1.TypeLifecycleDegraded}})
	if err != nil {
		return err
	}
	c := &connector{kube: w.Kube, uncached: w.Uncached, identify: custody.ByClient(o.NewClient), now: time.Now,
		gate: w.Gate, newClient: func(c rustfs.Config) (api, error) { return o.NewClient(c) }, record: w.Record}
	r := w.Reconciler(options.Connector[*v1alpha1.BucketLifecycle](c),
		// The bucket, not metadata.name, identifies the configuration, and
		// it may come from a reference resolved later: no external name.
		managed.WithInitializers(),
		// A put is idempotent, so an interrupted create is safe to retry.
		managed.WithDeterministicExternalName(true))
	m := mapper{kube: w.Kube}
	b := w.Builder(notResolution()).
		Watches(&v1alpha1.Tier{}, resetting(m.forTier), builder.WithPredicates(custody.BecameReady())).
		Watches(&v1alpha1.Bucket{}, resetting(m.forBucket), builder.WithPredicates(custody.BecameReady()))
	return w.Complete(b, &awaiting{kube: w.Kube, poll: o.PollInterval, inner: r})
}

func newClient(c rustfs.Config) (api, error) { return rustfs.New(c) }

// names are the RustFS names a BucketLifecycle writes or refers to: its
// bucket, once resolved, and the storage classes of its transitions.
func names(s custody.Subject) custody.Names {
	cr, ok := s.(*v1alpha1.BucketLifecycle)
	if !ok {
		return custody.Names{}
	}
	n := custody.Names{StorageClasses: storageClassesOf(cr)}
	if b := cr.Spec.ForProvider.Bucket; b != "" {
		n.Buckets = []string{b}
	}
	return n
}

// A connector produces an external client for one BucketLifecycle.
type connector struct {
	kube      client.Client
	uncached  client.Reader
	gate      *custody.Gate
	identify  custody.Identify
	now       func() time.Time
	newClient func(rustfs.Config) (api, error)
	record    event.Recorder // nil drops events
}

// Connect returns a RustFS client for the resource's ProviderConfig, unless
// the tenancy rules refuse the lifecycle that ProviderConfig, its bucket or
// a storage class it names: then no Secret is read (custody.Gate).
func (c *connector) Connect(ctx context.Context, cr *v1alpha1.BucketLifecycle) (managed.TypedExternalClient[*v1alpha1.BucketLifecycle], error) {
	conn, cl, err := custody.Dial(ctx, c.gate, cr, names(cr), options.ReadOnly(cr, c.newClient))
	if err != nil {
		return nil, err
	}
	return &external{kube: c.kube, uncached: c.uncached, client: cl, conn: conn, identifyFn: c.identify, now: c.now,
		record: c.record}, nil
}

var _ managed.TypedExternalClient[*v1alpha1.BucketLifecycle] = &external{}

// An external manages the lifecycle configuration of one bucket.
type external struct {
	kube       client.Client
	uncached   client.Reader
	client     api
	conn       *connection.Connection
	identifyFn custody.Identify
	now        func() time.Time
	record     event.Recorder // nil drops events
	// held is the custody record the lifecycle held at Observe.
	held *v1alpha1.CustodyRecord
}

// Delete never removes the bucket's lifecycle configuration: the resource
// is Retain-only (its managementPolicies cannot include Delete), so this is
// never called; it is a no-op for safety.
func (e *external) Delete(context.Context, *v1alpha1.BucketLifecycle) (managed.ExternalDelete, error) {
	return managed.ExternalDelete{}, nil
}

// Disconnect does nothing: the client holds no connection of its own.
func (e *external) Disconnect(context.Context) error { return nil }
