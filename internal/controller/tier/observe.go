package tier

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

const (
	errListTiers = "cannot list tiers"
	errRefresh   = "cannot read the Tier from the API server"
)

// observe reads the tier and decides what, if anything, may be written. It
// reports every failure a retry cannot fix by setting Ready=False (and
// TierConflict) and returning a blockedError; a transient failure returns
// the error and leaves the recorded status as it was. Its RustFS requests
// are reads: the deployment's identity (cached per configuration) and one
// tier list, which proves the Tier's access. Only the owner of the tier
// name reads its credentials Secret or sees the live tier's settings.
func (e *external) observe(ctx context.Context, cr *v1alpha1.Tier) (managed.ExternalObservation, error) {
	if meta.WasDeleted(cr) {
		// Retain-only: a deleted Tier's tier "does not exist" for the
		// reconciler, so it removes the finalizer and never calls Delete.
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	name := cr.Spec.ForProvider.Name
	if rule := naming.Tier.Broken(name); rule != "" {
		return managed.ExternalObservation{}, fail(cr, v1alpha1.ReasonTierApplyFailed, nameMessage(name, rule))
	}
	live, err := e.lookup(ctx, cr)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	refusal, err := e.custody(ctx, cr, live != nil)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	if refusal != nil {
		cr.Status.AtProvider = v1alpha1.TierObservation{}
		return managed.ExternalObservation{}, failBecause(cr, refusal.Reason, refusal.Message, refusal)
	}
	creds, secretErr := e.credentials(ctx, cr)
	secretErr = unneeded(cr, secretErr)
	if secretErr != nil && !connection.IsSecretError(secretErr) {
		return managed.ExternalObservation{}, secretErr
	}
	if err := e.refreshUnrecorded(ctx, cr, live); err != nil {
		return managed.ExternalObservation{}, err
	}
	cr.Status.AtProvider = observation(live, recall(cr), cr.GetCustody())
	return e.decide(cr, live, creds, secretErr)
}

// lookup lists the tiers with the Tier's own credentials and returns the
// one it names, or nil. RustFS refusing the credentials withdraws the
// Tier's proven access.
func (e *external) lookup(ctx context.Context, cr *v1alpha1.Tier) (*rustfs.Tier, error) {
	tiers, err := e.tiers.List(ctx, e.conn)
	if rustfs.IsAccessDenied(err) {
		was := custody.Record(cr)
		if serr := custody.Save(ctx, e.kube, cr, was, custody.Withdraw(was)); serr != nil {
			return nil, serr
		}
	}
	if err != nil {
		return nil, errors.Wrap(err, errListTiers)
	}
	return lookupTier(tiers, cr.Spec.ForProvider.Name), nil
}

// custody holds the tier name's custody record for the Tier, or says why
// it may not write the tier (package custody).
func (e *external) custody(ctx context.Context, cr *v1alpha1.Tier, exists bool) (*custody.Refusal, error) {
	name := cr.Spec.ForProvider.Name
	r, refusal, err := e.custodian().Admit(ctx, cr, e.conn, custody.Claim{Kind: v1alpha1.CustodyTier, Object: name, Exists: exists,
		Adoption: e.conn.Target.Tenancy.Adoption, Noun: fmt.Sprintf("tier %q", name), Field: "spec.forProvider.name",
		Duplicate: v1alpha1.ReasonDuplicateTier})
	e.held = r
	return refusal, err
}

// refreshUnrecorded refreshes cr when its tier exists and cr has no record
// of applied credentials.
func (e *external) refreshUnrecorded(ctx context.Context, cr *v1alpha1.Tier, live *rustfs.Tier) error {
	if live == nil || recall(cr) != nil {
		return nil
	}
	return e.refresh(ctx, cr)
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
		return managed.ExternalObservation{}, failBecause(cr, v1alpha1.ReasonTierSecretInvalid, secretMessage(cr, secretErr), secretErr)
	}
	op := opAdd
	if live != nil {
		op = opEdit
	}
	if b, ok := memo.Blocked(cr, fingerprint(cr, c.version, e.conn.Revision), op, e.now()); ok {
		return managed.ExternalObservation{}, fail(cr, b.Reason, b.Message)
	}
	if live == nil {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	cr.SetConditions(xpv2.Available().WithObservedGeneration(cr.GetGeneration()))
	drift := credentialsDrift(recall(cr), c.applied(), liveKeyHash(live.AccessKey))
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: drift == "", Diff: drift}, nil
}

// secretCreds are the tier credentials read from the Tier's Secret. They
// are never logged, printed or stored; only the access key's hash is.
type secretCreds struct {
	name, version        string
	accessKey, secretKey string
	gcsCredentials       string // GCS: the authorized-user JSON
}

// applied returns the record of having applied these credentials.
func (c secretCreds) applied() applied {
	return applied{SecretName: c.name, SecretResourceVersion: c.version, AccessKeyHash: hashKey(c.accessKey)}
}

// credentials reads the Tier's credentials Secret through the API reader
// (never a cache). A missing Secret or key, or a value that is empty after
// trimming, is a *connection.SecretError.
func (e *external) credentials(ctx context.Context, cr *v1alpha1.Tier) (secretCreds, error) {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	if ref.Name == "" {
		return secretCreds{}, &connection.SecretError{Namespace: cr.GetNamespace(), Problem: "is not named"}
	}
	v, err := connection.ReadSecret(ctx, e.uncached, cr.GetNamespace(), ref.Name, credentialKeys(cr)...)
	if connection.IsSecretError(err) {
		return secretCreds{}, err
	}
	if err != nil {
		return secretCreds{}, errors.Wrap(err, "cannot read the tier credentials Secret")
	}
	return fromSecret(cr, ref.Name, v)
}
