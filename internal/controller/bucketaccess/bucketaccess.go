// Package bucketaccess manages BucketAccess: a RustFS service account
// scoped to buckets of the resource's own namespace by a session policy the
// provider generates, under a parent user of that namespace (never the
// ProviderConfig's admin), with an access key derived from the resource and
// a secret key from crypto/rand published only in the connection Secret.
// It corrects policy drift, replaces the secret key on request or when the
// Secret lost it, and revokes the key when the resource is deleted
// (docs/resources.md, "BucketAccess").
package bucketaccess

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// An api is the part of the RustFS client this controller uses: service
// accounts, the namespace's parent user, and the deployment's identity.
type api interface {
	rustfs.ServiceAccountAPI
	rustfs.IdentityAPI
	EnsureParentUser(ctx context.Context, p rustfs.ParentUser) (rustfs.ParentUserState, error)
	UserInfo(ctx context.Context, name string) (rustfs.UserInfo, error)
	CannedPolicy(ctx context.Context, name string) (rustfs.Policy, error)
}

// SetupGated sets up the controller once the CRDs it reads are established.
func SetupGated(mgr ctrl.Manager, o options.Options) error {
	o.Gated("bucketaccess", func() error { return Setup(mgr, o) },
		v1alpha1.BucketAccessGroupVersionKind, v1alpha1.BucketGroupVersionKind,
		v1alpha1.ProviderConfigGroupVersionKind, v1alpha1.ClusterProviderConfigGroupVersionKind,
		v1alpha1.ProviderConfigUsageGroupVersionKind)
	return nil
}

// Setup adds the BucketAccess controller. Besides its own resources it
// watches Buckets, so that a BucketAccess waiting for a referenced Bucket,
// or for the custody of one of its buckets, decides again within seconds;
// the deletion of connection Secrets, so that a lost secret key is
// replaced at once; and the tenancy inputs (custody.Watch).
func Setup(mgr ctrl.Manager, o options.Options) error {
	w, err := o.Wire(mgr, options.Kind{Index: addIndexes, GroupKind: v1alpha1.BucketAccessGroupKind, GVK: v1alpha1.BucketAccessGroupVersionKind, Names: names,
		New: func() custody.Subject { return &v1alpha1.BucketAccess{} }, List: func() client.ObjectList { return &v1alpha1.BucketAccessList{} }})
	if err != nil {
		return err
	}
	c := &connector{kube: w.Kube, uncached: w.Uncached, now: time.Now, newSecret: rustfs.NewSecretKey, gate: w.Gate,
		newClient: func(c rustfs.Config) (api, error) { return o.NewClient(c) }, record: w.Record, namespaces: w.Namespaces}
	w.Refused = c.narrow
	r := w.Reconciler(options.Connector[*v1alpha1.BucketAccess](c),
		// The access key is derived from the resource: no external name.
		managed.WithInitializers(),
		// Create is safe to retry: a key that exists is found by Observe.
		managed.WithDeterministicExternalName(true))
	m := mapper{kube: w.Kube, log: w.Log}
	b := w.Builder().
		Watches(&v1alpha1.Bucket{}, handler.EnqueueRequestsFromMapFunc(m.forBucket),
			builder.WithPredicates(predicate.Or(custody.BecameReady(), custody.CustodyChanged()))).
		WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(m.forSecret), builder.WithPredicates(deleted()))
	b = b.Watches(&v1alpha1.CustodyRecord{}, handler.EnqueueRequestsFromMapFunc(m.forRecord))
	return w.Complete(b, follower{c: c, inner: r})
}

// names are the RustFS names a BucketAccess refers to: its buckets, once
// resolved. With nameScope NamespacePrefix the Gate refuses any outside the
// namespace's slice before a Secret is read.
func names(s custody.Subject) custody.Names {
	cr, ok := s.(*v1alpha1.BucketAccess)
	if !ok {
		return custody.Names{}
	}
	return custody.Names{Buckets: bucketNames(cr)}
}

// A connector produces an external client for one reconcile of a
// BucketAccess. Every dependency is a field, so tests can replace any.
type connector struct {
	kube client.Client
	// uncached reads past the cache: the connection Secret (Secret data is
	// never cached) and peers just before a write.
	uncached  client.Reader
	gate      *custody.Gate
	now       func() time.Time
	newSecret func() (string, error)
	newClient func(rustfs.Config) (api, error)
	// identify replaces the identity the client reports; tests of one
	// RustFS set custody.ByEndpoint.
	identify custody.Identify
	// record raises the events of changes; nil drops them.
	record event.Recorder
	// namespaces lists the namespaces with longer prefixes, from the
	// cache; nil lists none.
	namespaces longerLister
}

// A longerLister lists the namespaces that exist and whose names start with
// a namespace's name and a '-' (custody.Namespaces Longer).
type longerLister interface {
	Longer(ctx context.Context, ns string) ([]string, error)
}

// Connect returns a RustFS client for the resource's ProviderConfig, unless
// the tenancy rules refuse the resource that ProviderConfig or a bucket it
// names: then no Secret is read (custody.Gate). A BucketAccess being deleted
// is the exception: one that holds a record of having created its key is
// connected anyway, so that the key is revoked (revoker).
func (c *connector) Connect(ctx context.Context, cr *v1alpha1.BucketAccess) (managed.TypedExternalClient[*v1alpha1.BucketAccess], error) {
	conn, err := c.gate.Open(ctx, cr, names(cr))
	var refusal *custody.Refusal
	switch {
	case errors.As(err, &refusal) && meta.WasDeleted(cr):
		return c.revoker(ctx, cr)
	case err != nil:
		return nil, errors.Wrap(err, "cannot resolve the ProviderConfig")
	}
	return c.external(readOnly(cr, conn))
}

// revoker connects a BucketAccess being deleted that the tenancy rules now
// refuse: when its custody record says it created a key, with its
// ProviderConfig as it is, so that Delete revokes exactly that key (its own
// access key, under its own namespace's parent user); otherwise with no
// connection at all, as there is nothing to revoke.
func (c *connector) revoker(ctx context.Context, cr *v1alpha1.BucketAccess) (managed.TypedExternalClient[*v1alpha1.BucketAccess], error) {
	if custody.Record(cr).Acquired != v1alpha1.AcquiredCreated {
		return nothingToRevoke{}, nil
	}
	t, err := c.gate.Target(ctx, cr)
	if err != nil {
		return nil, errors.Wrap(err, "cannot resolve the ProviderConfig")
	}
	conn, err := c.gate.Connect(ctx, cr, t)
	if err != nil {
		return nil, errors.Wrap(err, "cannot resolve the ProviderConfig")
	}
	return c.external(conn)
}

func (c *connector) external(conn *connection.Connection) (*external, error) {
	cl, err := c.newClient(conn.Config)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create the RustFS client")
	}
	identify := c.identify
	if identify == nil {
		identify = custody.ByClient(func(rustfs.Config) (api, error) { return cl, nil })
	}
	return &external{kube: c.kube, uncached: c.uncached, client: cl, conn: conn, identify: identify, now: c.now, newSecret: c.newSecret,
		record: c.record, namespaces: c.namespaces}, nil
}

var _ managed.TypedExternalClient[*v1alpha1.BucketAccess] = &external{}

// An external manages the service account of one BucketAccess.
type external struct {
	kube      client.Client
	uncached  client.Reader
	client    api
	conn      *connection.Connection
	identify  custody.Identify
	now       func() time.Time
	newSecret func() (string, error)
	record    event.Recorder
	// namespaces lists the namespaces with longer prefixes.
	namespaces longerLister

	// plan is what Observe found to be done, for Update.
	plan plan
	// identity is the RustFS deployment Observe found, for key records.
	identity string
}

// Disconnect does nothing: the client holds no connection of its own.
func (e *external) Disconnect(context.Context) error { return nil }

// nothingToRevoke is the external client of a BucketAccess being deleted
// that the tenancy rules refuse and that never created a key: it reports
// that no key exists, so the resource goes without any request to RustFS.
type nothingToRevoke struct{}

func (nothingToRevoke) Observe(context.Context, *v1alpha1.BucketAccess) (managed.ExternalObservation, error) {
	return managed.ExternalObservation{}, nil
}

func (nothingToRevoke) Create(context.Context, *v1alpha1.BucketAccess) (managed.ExternalCreation, error) {
	return managed.ExternalCreation{}, nil
}

func (nothingToRevoke) Update(context.Context, *v1alpha1.BucketAccess) (managed.ExternalUpdate, error) {
	return managed.ExternalUpdate{}, nil
}

func (nothingToRevoke) Delete(context.Context, *v1alpha1.BucketAccess) (managed.ExternalDelete, error) {
	return managed.ExternalDelete{}, nil
}

func (nothingToRevoke) Disconnect(context.Context) error { return nil }
