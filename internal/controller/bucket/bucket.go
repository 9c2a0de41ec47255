// Package bucket manages RustFS buckets: it creates a missing bucket or
// adopts an existing one, keeps its versioning as the spec says, reports
// settings that cannot change on an existing bucket instead of touching it,
// and never deletes a bucket.
package bucket

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clientpool"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// SetupGated sets up the controller once the CRDs it reads are established.
func SetupGated(mgr ctrl.Manager, o options.Options) error {
	o.Gated("bucket", func() error { return Setup(mgr, o) },
		v1alpha1.BucketGroupVersionKind, v1alpha1.ProviderConfigGroupVersionKind,
		v1alpha1.ClusterProviderConfigGroupVersionKind, v1alpha1.ProviderConfigUsageGroupVersionKind)
	return nil
}

// Setup adds the Bucket controller.
func Setup(mgr ctrl.Manager, o options.Options) error {
	name := managed.ControllerName(v1alpha1.BucketGroupKind)
	kube := mgr.GetClient()
	res := connection.NewResolver(kube, mgr.GetAPIReader(),
		resource.NewProviderConfigUsageTracker(kube, &v1alpha1.ProviderConfigUsage{}))
	// One client, and connection pool, per configuration (clientpool).
	c := &connector{kube: kube, resolve: res.Resolve, newClient: clientpool.Shared(3*o.PollInterval, newClient)}
	opts := append(o.Managed(mgr, name),
		managed.WithTypedExternalConnector[*v1alpha1.Bucket](c),
		// The external name is the bucket name, known before creation.
		managed.WithDeterministicExternalName(true))
	r := managed.NewReconciler(mgr, resource.ManagedKind(v1alpha1.BucketGroupVersionKind), opts...)

	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(o.ForControllerRuntime()).
		For(&v1alpha1.Bucket{}, builder.WithPredicates(memo.DesiredStateChanged())).
		Complete(ratelimiter.NewReconciler(name, r, o.GlobalRateLimiter))
}

func newClient(c rustfs.Config) (rustfs.BucketAPI, error) { return rustfs.New(c) }

// A connector produces an external client for one Bucket.
type connector struct {
	kube      client.Client
	resolve   func(ctx context.Context, mg resource.ModernManaged) (*connection.Connection, error)
	newClient func(rustfs.Config) (rustfs.BucketAPI, error)
}

// Connect resolves the resource's ProviderConfig into a RustFS client.
func (c *connector) Connect(ctx context.Context, cr *v1alpha1.Bucket) (managed.TypedExternalClient[*v1alpha1.Bucket], error) {
	conn, err := c.resolve(ctx, cr)
	if err != nil {
		return nil, errors.Wrap(err, "cannot resolve the ProviderConfig")
	}
	cl, err := c.newClient(conn.Config)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create the RustFS client")
	}
	return &external{kube: c.kube, client: cl, conn: conn}, nil
}

var _ managed.TypedExternalClient[*v1alpha1.Bucket] = &external{}

// An external manages one bucket.
type external struct {
	kube   client.Client
	client rustfs.BucketAPI
	conn   *connection.Connection
}

// Delete never deletes the bucket: the resource is Retain-only (its
// managementPolicies cannot include Delete), so this is never called; it
// is a no-op for safety.
func (e *external) Delete(context.Context, *v1alpha1.Bucket) (managed.ExternalDelete, error) {
	return managed.ExternalDelete{}, nil
}

// Disconnect does nothing: the client holds no connection of its own.
func (e *external) Disconnect(context.Context) error { return nil }
