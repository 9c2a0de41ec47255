// Package bucket manages RustFS buckets: it creates a missing bucket or
// adopts an existing one, keeps its versioning and quota as the spec says,
// reports settings that cannot change on an existing bucket instead of
// touching it, and deletes a bucket only when it is empty and the Bucket's
// managementPolicies include Delete (delete.go).
package bucket

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// SetupGated sets up the controller once the CRDs it reads are established.
func SetupGated(mgr ctrl.Manager, o options.Options) error {
	o.Gated("bucket", func() error { return Setup(mgr, o) },
		v1alpha1.BucketGroupVersionKind, v1alpha1.ProviderConfigGroupVersionKind,
		v1alpha1.ClusterProviderConfigGroupVersionKind, v1alpha1.ProviderConfigUsageGroupVersionKind)
	return nil
}

// Setup adds the Bucket controller. Besides its own resources it watches
// the tenancy inputs and custody records (custody.Watch).
func Setup(mgr ctrl.Manager, o options.Options) error {
	w, err := o.Wire(mgr, options.Kind{Index: addIndexes, GroupKind: v1alpha1.BucketGroupKind, GVK: v1alpha1.BucketGroupVersionKind, Names: names,
		New: func() custody.Subject { return &v1alpha1.Bucket{} }, List: func() client.ObjectList { return &v1alpha1.BucketList{} },
		Conditions: []xpv2.ConditionType{v1alpha1.TypeBucketConflict}})
	if err != nil {
		return err
	}
	c := &connector{kube: w.Kube, uncached: w.Uncached, identify: custody.ByClient(o.NewClient), now: time.Now, gate: w.Gate,
		newClient: func(c rustfs.Config) (bucketClient, error) { return o.NewClient(c) }, record: w.Record}
	r := w.Reconciler(options.Connector[*v1alpha1.Bucket](c),
		// The external name is the bucket name, known before creation.
		managed.WithInitializers(options.NameAsExternalName(w.Kube)),
		managed.WithDeterministicExternalName(true))
	return w.Complete(w.Builder(), r)
}

// addIndexes registers the field indexes the controller reads: Buckets by
// bucket and by ProviderConfig.
func addIndexes(ctx context.Context, fi client.FieldIndexer, s *custody.Shared) error {
	if err := s.Index(ctx, fi, &v1alpha1.Bucket{}, custody.IndexExternalName, custody.IndexByExternalName, custody.AllNamespaces); err != nil {
		return err
	}
	return s.Index(ctx, fi, &v1alpha1.Bucket{}, custody.IndexProviderConfig, custody.IndexByProviderConfig, custody.ProviderConfigScope)
}

func newClient(c rustfs.Config) (bucketClient, error) { return rustfs.New(c) }

// names are the RustFS names a Bucket writes: its bucket.
func names(s custody.Subject) custody.Names {
	return custody.Names{Buckets: []string{meta.GetExternalName(s)}}
}

// A connector produces an external client for one Bucket.
type connector struct {
	kube      client.Client
	uncached  client.Reader
	gate      *custody.Gate
	identify  custody.Identify
	now       func() time.Time
	newClient func(rustfs.Config) (bucketClient, error)
	record    event.Recorder // nil drops events
}

// Connect returns a RustFS client for the Bucket's ProviderConfig, unless
// the tenancy rules refuse the Bucket that ProviderConfig or its bucket
// name: then no Secret is read (custody.Gate).
func (c *connector) Connect(ctx context.Context, cr *v1alpha1.Bucket) (managed.TypedExternalClient[*v1alpha1.Bucket], error) {
	conn, cl, err := custody.Dial(ctx, c.gate, cr, names(cr), options.ReadOnly(cr, c.newClient))
	if err != nil {
		return nil, err
	}
	return &external{connector: c, client: cl, conn: conn}, nil
}

var _ managed.TypedExternalClient[*v1alpha1.Bucket] = &external{}

// An external manages one bucket.
type external struct {
	*connector
	client bucketClient
	conn   *connection.Connection
	// live is what Observe found of the bucket's settings, which Update
	// corrects.
	live settings
	// held is the custody record the Bucket held at Observe.
	held *v1alpha1.CustodyRecord
}

// custodian decides through custody records, read past the cache.
func (c *connector) custodian() custody.Custodian {
	return custody.Custodian{Store: custody.Store{Kube: c.kube, Reader: c.uncached}, Identify: c.identify, Now: c.now}
}

// Disconnect does nothing: the client holds no connection of its own.
func (e *external) Disconnect(context.Context) error { return nil }
