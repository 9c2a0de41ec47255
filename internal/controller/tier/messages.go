package tier

import (
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// Condition messages. Each names the problem, the fields involved and the
// next action; none holds a secret value or a timestamp.

const retryNote = "Nothing more is written to RustFS until the Tier, its Secret or its ProviderConfig changes."

// driftMessage names every setting that differs, with its live and desired
// values.
func driftMessage(name string, diffs []fieldDiff) string {
	parts := make([]string, 0, len(diffs))
	for _, d := range diffs {
		live, want := d.Live, d.Desired
		if d.Field == "type" {
			live, want = typeName(live), typeName(want)
		}
		parts = append(parts, fmt.Sprintf("spec.forProvider.%s is %q but RustFS has %q", d.Field, want, live))
	}
	return fmt.Sprintf("Tier %q exists in RustFS with settings RustFS cannot change on a registered tier: %s. "+
		"The provider never removes a tier: set these fields to the live values, or use a new spec.forProvider.name for a new tier.",
		name, strings.Join(parts, "; "))
}

// typeName returns the spec's spelling of a wire type when there is one.
func typeName(wire string) string {
	if s := specType(rustfs.TierType(wire)); s != "" {
		return string(s)
	}
	return wire
}

func nameMessage(name, rule string) string {
	return fmt.Sprintf("spec.forProvider.name %q is not a valid RustFS tier name: it %s. "+
		"The name is immutable: create a Tier with a valid name. Nothing was written to RustFS.", name, rule)
}

func secretMessage(cr *v1alpha1.Tier, err error) string {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	keys := credentialKeys(cr)
	want := fmt.Sprintf("non-empty keys %q and %q", keys[0], keys[len(keys)-1])
	if len(keys) == 1 {
		want = fmt.Sprintf("the service account JSON key of the GCS remote under key %q", keys[0])
	}
	return fmt.Sprintf("Cannot use the credentials of tier %q: %s. Provide Secret %s/%s (spec.forProvider.credentialsSecretRef) "+
		"with %s. Nothing is written to RustFS until then.", cr.Spec.ForProvider.Name, err, cr.GetNamespace(), ref.Name, want)
}

// inUseMessage explains a non-empty remote prefix. ambiguous is set for the
// RustFS 1.0.0-rc answer, which also means a 30 s validation timeout.
func inUseMessage(p v1alpha1.TierParameters, ambiguous bool) string {
	msg := fmt.Sprintf("RustFS refused to add tier %q because prefix %q of remote bucket %q already holds objects. "+
		"Point spec.forProvider.prefix at a prefix that holds no objects, or set spec.forProvider.force to true "+
		"if the objects belong to this tenant (for example after a restore).", p.Name, p.Prefix, p.Bucket)
	if ambiguous {
		msg += " RustFS 1.0.0-rc gives the same answer when the remote does not answer within 30 seconds, " +
			"so the add is retried once per poll interval."
	}
	return msg
}

// refusedMessage explains a write RustFS refused for good. what is "add
// tier" or "rotate the credentials of tier".
func refusedMessage(what string, cr *v1alpha1.Tier, err error) string {
	p := cr.Spec.ForProvider
	var next string
	switch {
	case rustfs.IsAccessDenied(err):
		next = "The ProviderConfig's credentials may not manage tiers: grant them admin:SetTier, or fix the ProviderConfig's Secret."
	case rustfs.IsInvalidTierName(err), rustfs.IsReservedTierName(err):
		next = "Create a Tier with another spec.forProvider.name."
	case p.Type == v1alpha1.TierTypeR2 && rustfs.IsInvalidConfig(err):
		next = "RustFS 1.0.0 refuses Cloudflare R2 remotes when it adds a tier (rustfs/rustfs#7999): type R2 needs a RustFS " +
			"release newer than 1.0.0. Upgrade RustFS, then change the Tier or its Secret to retry."
	default:
		next = fmt.Sprintf("Check spec.forProvider endpoint, bucket and region, that the remote bucket exists, "+
			"and the keys in Secret %s/%s.", cr.GetNamespace(), p.CredentialsSecretRef.Name)
	}
	return fmt.Sprintf("RustFS refused to %s %q: %s. %s %s", what, p.Name, err, next, retryNote)
}

// editFailure classifies a failed credentials edit: new credentials the
// remote refused (or RustFS found missing) leave the tier as it was, with
// its previous credentials (CredentialsRefused); any other refusal, such as
// a ProviderConfig without admin:SetTier, is TierApplyFailed.
func editFailure(cr *v1alpha1.Tier, err error) (xpv2.ConditionReason, string) {
	if rustfs.IsInvalidConfig(err) {
		return v1alpha1.ReasonCredentialsRefused, rotationRefusedMessage(cr, err)
	}
	return v1alpha1.ReasonTierApplyFailed, refusedMessage("rotate the credentials of tier", cr, err)
}

// rotationRefusedMessage explains a credentials edit RustFS refused. RustFS
// 1.0.x probes the remote with the new credentials first and keeps the
// previous ones when the remote refuses them.
func rotationRefusedMessage(cr *v1alpha1.Tier, err error) string {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	return fmt.Sprintf("RustFS refused the new credentials of tier %q from Secret %s/%s: %s. The tier keeps the credentials it had "+
		"and stays usable. Fix the credentials in the Secret (the remote must accept them for put, get, list and delete), "+
		"or grant them on the remote, then update the Secret. %s", cr.Spec.ForProvider.Name, cr.GetNamespace(), ref.Name, err, retryNote)
}

// addFailure classifies a failed add into a block reason and message.
// ambiguous is set when the answer may also be a timeout, so the add may be
// retried once per poll interval.
func addFailure(cr *v1alpha1.Tier, err error) (reason xpv2.ConditionReason, msg string, ambiguous bool) {
	if rustfs.IsBackendInUse(err) {
		ambiguous = serverError(err)
		return v1alpha1.ReasonBackendInUse, inUseMessage(cr.Spec.ForProvider, ambiguous), ambiguous
	}
	return v1alpha1.ReasonTierApplyFailed, refusedMessage("add tier", cr, err), false
}

// serverError reports a RustFS 5xx answer: RustFS 1.0.0-rc sends "backend in
// use" as 500 TierNameBackendInUse! both for a non-empty prefix and for a
// remote that timed out (docs/rustfs-wire.md §4); GA sends 409 for the former only.
func serverError(err error) bool {
	var e *rustfs.APIError
	return errors.As(err, &e) && e.Status >= 500
}

func keyOr(key, def string) string {
	if key == "" {
		return def
	}
	return key
}
