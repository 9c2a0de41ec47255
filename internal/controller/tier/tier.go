// Package tier is the controller of the Tier managed resource: a RustFS
// remote storage tier that the provider registers or adopts, whose
// credentials it rotates from a Secret, and which it never changes
// otherwise nor removes.
package tier

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpevent "github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/tier/tierview"
)

// SetupGated sets up the Tier controller once the CRDs it needs exist.
func SetupGated(mgr ctrl.Manager, o options.Options) error {
	o.Gated("tier", func() error { return Setup(mgr, o) },
		v1alpha1.TierGroupVersionKind,
		v1alpha1.ProviderConfigGroupVersionKind,
		v1alpha1.ClusterProviderConfigGroupVersionKind,
		v1alpha1.ProviderConfigUsageGroupVersionKind)
	return nil
}

// Setup adds the Tier controller to mgr. Secrets are watched as metadata
// only and their data is read through the API reader, so the manager never
// caches Secret data. Every dependency is built here, once: Tier reconciles
// share one tier list per endpoint and credentials (tierList), and a
// client per Connect shares the manager's transports and identity cache.
func Setup(mgr ctrl.Manager, o options.Options) error {
	w, err := o.Wire(mgr, options.Kind{Index: addIndexes, GroupKind: v1alpha1.TierGroupKind, GVK: v1alpha1.TierGroupVersionKind, Names: names,
		New: func() custody.Subject { return &v1alpha1.Tier{} }, List: func() client.ObjectList { return &v1alpha1.TierList{} },
		Conditions: []xpv2.ConditionType{v1alpha1.TypeTierConflict}})
	if err != nil {
		return err
	}
	w.Gate.Report = report
	clients := func(c rustfs.Config) (rustfs.TierAPI, error) { return o.NewClient(c) }
	changes := make(chan event.TypedGenericEvent[[]tierview.Change], changeBuffer)
	tiers, err := tierList(mgr.Add, o, listWith(clients), send(changes, w.Log))
	if err != nil {
		return err
	}
	c := &connector{kube: w.Kube, uncached: w.Uncached, gate: w.Gate, identify: custody.ByClient(o.NewClient),
		newClient: clients, tiers: tiers, now: time.Now, poll: o.PollInterval, record: w.Record,
		verify:    schedule{interval: o.TierVerifyInterval, start: time.Now()},
		statsView: newStatsView(readStats(clients), o.PollInterval, time.Now)}
	r := w.Reconciler(options.Connector[*v1alpha1.Tier](c),
		managed.WithInitializers(&externalName{kube: w.Kube}),
		managed.WithDeterministicExternalName(true),
		managed.WithTimeout(reconcileTimeout))
	b := w.Builder().
		WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(tiersUsingSecret(w.Kube, w.Log))).
		WatchesRawSource(source.Channel(changes, handler.TypedEnqueueRequestsFromMapFunc(tiersNaming(w.Kube, w.Log))))
	return w.Complete(b, forgetGone{kube: w.Kube, inner: r})
}

// reconcileTimeout bounds one reconcile of a Tier: a tier list, then an add
// or credentials edit with the client's 90 s remote deadline
// (docs/rustfs-wire.md §19.1), which the managed reconciler's default of one
// minute would cut off.
const reconcileTimeout = 3 * time.Minute

const errNewClient = "cannot create RustFS client"

// A connector produces an external client for one reconcile of a Tier.
// Every dependency is a field, so tests can replace any of them.
type connector struct {
	kube client.Client
	// uncached reads past the cache: Secrets, whose data is never cached,
	// and a Tier when a decision to write must not rest on a cached copy
	// that may lag behind the provider's own writes.
	uncached  client.Reader
	gate      *custody.Gate
	identify  custody.Identify
	newClient func(rustfs.Config) (rustfs.TierAPI, error)
	tiers     tierLister
	now       func() time.Time
	poll      time.Duration
	// verify schedules tier verifies; the zero schedule verifies never.
	verify    schedule
	statsView *statsView
	record    xpevent.Recorder // nil drops events
}

// Connect returns a client for the Tier's ProviderConfig, unless the
// tenancy rules refuse the Tier that ProviderConfig or its tier name: then
// no Secret is read (custody.Gate).
func (c *connector) Connect(ctx context.Context, cr *v1alpha1.Tier) (managed.TypedExternalClient[*v1alpha1.Tier], error) {
	conn, api, err := custody.Dial(ctx, c.gate, cr, names(cr), options.ReadOnly(cr, c.newClient))
	var r *custody.Refusal
	if errors.As(err, &r) {
		return nil, &blockedError{Reason: r.Reason, Message: r.Message, Cause: r}
	}
	if err != nil {
		return nil, err
	}
	return &external{kube: c.kube, uncached: c.uncached, identify: c.identify, tiers: c.tiers, now: c.now, poll: c.poll,
		verify: c.verify, statsView: c.statsView, record: c.record, conn: conn, api: api}, nil
}

// names are the RustFS names a Tier writes: its tier name.
func names(s custody.Subject) custody.Names {
	cr, ok := s.(*v1alpha1.Tier)
	if !ok {
		return custody.Names{}
	}
	return custody.Names{Tiers: []string{cr.Spec.ForProvider.Name}}
}

// report sets a Tier's conditions for a refusal of the tenancy rules.
func report(s custody.Subject, r *custody.Refusal) {
	if cr, ok := s.(*v1alpha1.Tier); ok {
		_ = fail(cr, r.Reason, r.Message)
	}
}

var _ managed.TypedExternalClient[*v1alpha1.Tier] = &external{}

// An external observes, adds and edits one RustFS tier. It never removes
// one.
type external struct {
	kube     client.Client
	uncached client.Reader // as connector.uncached
	identify custody.Identify
	tiers    tierLister
	now      func() time.Time
	poll     time.Duration
	// verify, statsView and record are as connector's.
	verify    schedule
	statsView *statsView
	record    xpevent.Recorder
	conn      *connection.Connection
	api       rustfs.TierAPI
	// held is the custody record the Tier held at Observe.
	held *v1alpha1.CustodyRecord
}

// custodian decides through custody records, read past the cache.
func (e *external) custodian() custody.Custodian {
	return custody.Custodian{Store: custody.Store{Kube: e.kube, Reader: e.uncached}, Identify: e.identify, Now: e.now}
}

// Delete does nothing: tiers are Retain-only. RustFS refuses to remove a
// tier that objects reference, and transitioned objects live under the
// remote prefix, so the provider never removes one, even when Delete was
// forced into the management policies.
func (e *external) Delete(_ context.Context, _ *v1alpha1.Tier) (managed.ExternalDelete, error) {
	return managed.ExternalDelete{}, nil
}

// Disconnect does nothing: the client holds no session.
func (e *external) Disconnect(_ context.Context) error { return nil }

// An externalName initializer makes the external-name annotation mirror
// spec.forProvider.name, the tier's identity in RustFS. It replaces the
// default initializer, which would write metadata.name.
type externalName struct{ kube client.Client }

// Initialize sets the external name to spec.forProvider.name.
func (i *externalName) Initialize(ctx context.Context, mg resource.Managed) error {
	cr, ok := mg.(*v1alpha1.Tier)
	if !ok {
		return errors.New("managed resource is not a Tier")
	}
	if meta.GetExternalName(cr) == cr.Spec.ForProvider.Name {
		return nil
	}
	meta.SetExternalName(cr, cr.Spec.ForProvider.Name)
	return errors.Wrap(i.kube.Update(ctx, cr), "cannot set the external name to spec.forProvider.name")
}
