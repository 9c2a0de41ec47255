package tier

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/owner"
)

const (
	errListTiers = "cannot list tiers"
	errPeers     = "cannot list the Tiers that name the same tier"
	errRefresh   = "cannot read the Tier from the API server"
)

// Observe reads the tier and decides what, if anything, may be written. It
// reports every failure a retry cannot fix by setting Ready=False (and
// TierConflict) and returning a blockedError; a transient failure returns
// the error and leaves the recorded status as it was. The only RustFS
// request is at most one tier list.
func (e *external) Observe(ctx context.Context, cr *v1alpha1.Tier) (managed.ExternalObservation, error) {
	if meta.WasDeleted(cr) {
		// Retain-only: a deleted Tier's tier "does not exist" for the
		// reconciler, so it removes the finalizer and never calls Delete.
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if err := e.preflight(ctx, cr); err != nil {
		return managed.ExternalObservation{}, err
	}
	creds, secretErr := e.credentials(ctx, cr)
	if secretErr != nil && !connection.IsSecretError(secretErr) {
		return managed.ExternalObservation{}, secretErr
	}
	tiers, err := e.listTiers(ctx, e.conn)
	if err != nil {
		return managed.ExternalObservation{}, errors.Wrap(err, errListTiers)
	}
	live := lookup(tiers, cr.Spec.ForProvider.Name)
	if live != nil && recall(cr) == nil {
		if err := e.refresh(ctx, cr); err != nil {
			return managed.ExternalObservation{}, err
		}
	}
	cr.Status.AtProvider = observation(live, recall(cr))
	return e.decide(cr, live, creds, secretErr)
}

// refresh re-reads cr past the cache before a tier that exists without a
// record of applied credentials is adopted, which costs one credentials
// edit. The record may only be missing from a cached copy that lags
// behind the annotations the provider's own Create wrote. If the stored
// Tier has the record, cr takes the stored metadata when its spec is the
// same generation (so the status update that follows does not conflict),
// and otherwise only the provider's memory, for the newer generation is
// reconciled next.
func (e *external) refresh(ctx context.Context, cr *v1alpha1.Tier) error {
	stored := &v1alpha1.Tier{}
	if err := e.uncached.Get(ctx, client.ObjectKeyFromObject(cr), stored); err != nil {
		return errors.Wrap(err, errRefresh)
	}
	if recall(stored) == nil {
		return nil
	}
	if stored.GetGeneration() == cr.GetGeneration() {
		stored.ObjectMeta.DeepCopyInto(&cr.ObjectMeta)
		return nil
	}
	for _, k := range []string{credentialsKey, memo.BlockKey} {
		memo.Delete(cr, k)
		if v, ok := stored.GetAnnotations()[k]; ok {
			meta.AddAnnotations(cr, map[string]string{k: v})
		}
	}
	return nil
}

// preflight runs the checks that need no RustFS request: the tier name
// rules, and that this Tier owns its tier name on its endpoint.
func (e *external) preflight(ctx context.Context, cr *v1alpha1.Tier) error {
	name := cr.Spec.ForProvider.Name
	if rule := validateName(name); rule != "" {
		return fail(cr, v1alpha1.ReasonTierApplyFailed, nameMessage(name, rule))
	}
	o, err := e.owner(ctx, cr)
	if err != nil {
		return err
	}
	if o.GetUID() != cr.GetUID() {
		return fail(cr, v1alpha1.ReasonDuplicateTier, duplicateMessage(name, e.conn.Endpoint, o.GetNamespace()+"/"+o.GetName()))
	}
	return nil
}

// owner returns the Tier allowed to manage cr's tier name on cr's endpoint:
// the oldest of the Tiers naming it (design.md, duplicates).
func (e *external) owner(ctx context.Context, cr *v1alpha1.Tier) (resource.ModernManaged, error) {
	l := &v1alpha1.TierList{}
	if err := e.kube.List(ctx, l, client.MatchingFields{indexTierName: cr.Spec.ForProvider.Name}); err != nil {
		return nil, errors.Wrap(err, errPeers)
	}
	peers := make([]resource.ModernManaged, 0, len(l.Items))
	for i := range l.Items {
		peers = append(peers, &l.Items[i])
	}
	return owner.Find(ctx, cr, e.conn.Endpoint, peers, e.endpointOf), nil
}

// decide reports what the live tier means for the spec. live is nil when
// RustFS has no tier of that name; secretErr is a *connection.SecretError.
func (e *external) decide(cr *v1alpha1.Tier, live *rustfs.Tier, c secretCreds, secretErr error) (managed.ExternalObservation, error) {
	p := cr.Spec.ForProvider
	if live != nil {
		if d := settingsDiff(desiredTier(p), *live); len(d) > 0 {
			return managed.ExternalObservation{}, fail(cr, v1alpha1.ReasonImmutableFieldDrift, driftMessage(p.Name, d))
		}
	}
	cr.SetConditions(noConflict(cr.GetGeneration()))
	if secretErr != nil {
		return managed.ExternalObservation{}, fail(cr, v1alpha1.ReasonTierSecretInvalid, secretMessage(cr, secretErr))
	}
	op := opAdd
	if live != nil {
		op = opEdit
	}
	if b, ok := activeBlock(cr, fingerprint(cr, c.version, e.conn.Revision), op, e.now()); ok {
		return managed.ExternalObservation{}, fail(cr, b.Reason, b.Message)
	}
	if live == nil {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	cr.SetConditions(xpv2.Available().WithObservedGeneration(cr.GetGeneration()))
	drift := credentialsDrift(recall(cr), c.applied(false), liveKeyHash(live.AccessKey))
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: drift == "", Diff: drift}, nil
}

// secretCreds are the tier credentials read from the Tier's Secret. They
// are never logged, printed or stored; only the access key's hash is.
type secretCreds struct {
	name, version        string
	accessKey, secretKey string
}

// applied returns the record of having applied these credentials.
func (c secretCreds) applied(adopted bool) applied {
	return applied{SecretName: c.name, SecretResourceVersion: c.version, AccessKeyHash: hashKey(c.accessKey), Adopted: adopted}
}

// credentials reads the Tier's credentials Secret through the API reader
// (never a cache). A missing Secret or key, or a value that is empty after
// trimming, is a *connection.SecretError.
func (e *external) credentials(ctx context.Context, cr *v1alpha1.Tier) (secretCreds, error) {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	if ref.Name == "" {
		return secretCreds{}, &connection.SecretError{Namespace: cr.GetNamespace(), Problem: "is not named"}
	}
	ak := keyOr(ref.AccessKeyKey, v1alpha1.DefaultAccessKeyKey)
	sk := keyOr(ref.SecretKeyKey, v1alpha1.DefaultSecretKeyKey)
	v, err := connection.ReadSecret(ctx, e.uncached, cr.GetNamespace(), ref.Name, ak, sk)
	if connection.IsSecretError(err) {
		return secretCreds{}, err
	}
	if err != nil {
		return secretCreds{}, errors.Wrap(err, "cannot read the tier credentials Secret")
	}
	return secretCreds{name: ref.Name, version: v.ResourceVersion, accessKey: v.Values[ak], secretKey: v.Values[sk]}, nil
}
