package tier

import (
	"fmt"
	"strings"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// Condition messages. Each names the problem, the fields involved and the
// next action; none holds a secret value or a timestamp.

const retryNote = "Nothing more is written to RustFS until the Tier, its Secret or its ProviderConfig changes."

// ambiguousNote ends the message of an answer RustFS also gives for a
// passing state (rustfs.IsAmbiguous).
const ambiguousNote = "RustFS gives this answer both for keys or settings the remote refuses and for a remote that did not answer in time, " +
	"so the write is retried once per poll interval; a change of the Tier, its Secret or its ProviderConfig retries it at once."

// nextNote says when a refused write is tried again.
func nextNote(ambiguous bool) string {
	if ambiguous {
		return ambiguousNote
	}
	return retryNote
}

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

// nameMessage explains a spec.forProvider.name that breaks a tier name
// rule (naming.Tier).
func nameMessage(name, rule string) string {
	return fmt.Sprintf("spec.forProvider.name %q is not a valid RustFS tier name: it %s. "+
		"The name is immutable: create a Tier with a valid name. Nothing was written to RustFS.", name, rule)
}

func secretMessage(cr *v1alpha1.Tier, err error) string {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	keys := credentialKeys(cr)
	want := fmt.Sprintf("non-empty keys %q and %q", keys[0], keys[len(keys)-1])
	if len(keys) == 1 {
		want = fmt.Sprintf("a Google authorized-user JSON under key %q", keys[0])
	}
	return fmt.Sprintf("Cannot use the credentials of tier %q: %s. Provide Secret %s/%s (spec.forProvider.credentialsSecretRef) "+
		"with %s. Nothing is written to RustFS until then.", cr.Spec.ForProvider.Name, err, cr.GetNamespace(), ref.Name, want)
}

// inUseMessage explains a non-empty remote prefix. ambiguous is set when
// the answer may also mean a passing state (rustfs.IsAmbiguous).
func inUseMessage(p v1alpha1.TierParameters, ambiguous bool) string {
	msg := fmt.Sprintf("RustFS refused to add tier %q because prefix %q of remote bucket %q already holds objects. "+
		"Point spec.forProvider.prefix at a prefix that holds no objects, or set spec.forProvider.force to true "+
		"if the objects belong to this tenant (for example after a restore).", p.Name, p.Prefix, p.Bucket)
	if ambiguous {
		msg += " RustFS gives the same answer when it could not check the remote within 30 seconds, while transitions " +
			"to the tier are in progress or while a recovery must finish, so the add is retried once per poll interval."
	}
	return msg
}

// refusedMessage explains a write RustFS refused. what is "add tier" or
// "rotate the credentials of tier"; ambiguous says the refusal may pass.
func refusedMessage(what string, cr *v1alpha1.Tier, err error, ambiguous bool) string {
	p := cr.Spec.ForProvider
	var next string
	switch {
	case rustfs.IsAccessDenied(err):
		next = "The ProviderConfig's credentials may not manage tiers: grant them admin:SetTier, or fix the ProviderConfig's Secret."
	case rustfs.IsRedirect(err):
		next = "The ProviderConfig's endpoint answered with a redirect, which the provider never follows: " +
			"set its spec.endpoint to the RustFS server itself."
	case rustfs.IsInvalidTierName(err), rustfs.IsReservedTierName(err):
		next = "Create a Tier with another spec.forProvider.name."
	case p.Type == v1alpha1.TierTypeR2 && rustfs.IsInvalidConfig(err):
		next = "RustFS 1.0.0 refuses Cloudflare R2 remotes when it adds a tier (rustfs/rustfs#7999): type R2 needs a RustFS " +
			"release newer than 1.0.0. Upgrade RustFS, then change the Tier or its Secret to retry."
	case p.Type == v1alpha1.TierTypeGCS && rustfs.IsInvalidConfig(err):
		next = gcsHint(cr)
	case unprobedTypes[p.Type] && rustfs.IsProbeUncertain(err):
		next = fmt.Sprintf("RustFS 1.0.x writes a probe object to the remote before it adds a tier and must then find it again; "+
			"of its backends only S3, RustFS, MinIO and R2 can, so it refuses every %s tier this way and leaves the probe object "+
			"on the remote. Use RustFS 1.0.0-rc, or a release whose %s backend finds its probe object.", p.Type, p.Type)
	default:
		next = fmt.Sprintf("Check spec.forProvider endpoint, bucket and region, that the remote bucket exists, "+
			"and the keys in Secret %s/%s.", cr.GetNamespace(), p.CredentialsSecretRef.Name)
	}
	return fmt.Sprintf("RustFS refused to %s %q: %s. %s %s", what, p.Name, err, next, nextNote(ambiguous))
}

// unprobedTypes are the types whose RustFS 1.0.x backend cannot find the
// probe object an add and a credentials edit write (docs/rustfs-wire.md §4.3).
var unprobedTypes = map[v1alpha1.TierType]bool{
	v1alpha1.TierTypeWasabi: true, v1alpha1.TierTypeAliyun: true, v1alpha1.TierTypeTencent: true,
	v1alpha1.TierTypeHuaweiCloud: true, v1alpha1.TierTypeAzure: true, v1alpha1.TierTypeGCS: true,
}

// gcsHint says what credentials RustFS needs for a GCS tier, and which
// release can use them (docs/rustfs-wire.md §2).
func gcsHint(cr *v1alpha1.Tier) string {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	return fmt.Sprintf("RustFS reads a GCS tier's credentials as a Google OAuth authorized-user JSON (the strings type, client_id, "+
		"client_secret and refresh_token, as `gcloud auth application-default login` writes it) and refuses a service-account key: "+
		"put such a JSON under key %q of Secret %s/%s. RustFS 1.0.0-rc adds and rotates GCS tiers with it; RustFS 1.0.x refuses "+
		"every GCS tier, because its credential check wants \"type\": \"service_account\" while its GCS backend reads an authorized user.",
		credentialKeys(cr)[0], cr.GetNamespace(), ref.Name)
}

// editFailure classifies a failed credentials edit: new credentials the
// remote refused (or RustFS found missing) leave the tier as it was, with
// its previous credentials (CredentialsRefused); any other refusal, such as
// a ProviderConfig without admin:SetTier, is TierApplyFailed. ambiguous is
// set when the refusal may pass by itself (rustfs.IsAmbiguous).
func editFailure(cr *v1alpha1.Tier, err error) (reason xpv2.ConditionReason, msg string, ambiguous bool) {
	ambiguous = rustfs.IsAmbiguous(err)
	if rustfs.IsInvalidConfig(err) {
		return v1alpha1.ReasonCredentialsRefused, rotationRefusedMessage(cr, err, ambiguous), ambiguous
	}
	return v1alpha1.ReasonTierApplyFailed, refusedMessage("rotate the credentials of tier", cr, err, ambiguous), ambiguous
}

// rotationRefusedMessage explains a credentials edit RustFS refused. RustFS
// 1.0.x probes the remote with the new credentials first and keeps the
// previous ones when the remote refuses them.
func rotationRefusedMessage(cr *v1alpha1.Tier, err error, ambiguous bool) string {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	fix := "Fix the credentials in the Secret (the remote must accept them for put, get, list and delete), " +
		"or grant them on the remote, then update the Secret."
	if cr.Spec.ForProvider.Type == v1alpha1.TierTypeGCS {
		fix = gcsHint(cr) + " Then update the Secret."
	}
	return fmt.Sprintf("RustFS refused the new credentials of tier %q from Secret %s/%s: %s. The tier keeps the credentials it had "+
		"and stays usable. %s %s", cr.Spec.ForProvider.Name, cr.GetNamespace(), ref.Name, err, fix, nextNote(ambiguous))
}

// addFailure classifies a failed add into a block reason and message.
// ambiguous is set when the answer may also mean a passing state
// (rustfs.IsAmbiguous: rc's 500 and GA's 409 "backend in use" also mean a
// remote check that timed out or active transitions, docs/rustfs-wire.md
// §13.4), so the add is retried once per poll interval.
func addFailure(cr *v1alpha1.Tier, err error) (reason xpv2.ConditionReason, msg string, ambiguous bool) {
	ambiguous = rustfs.IsAmbiguous(err)
	if rustfs.IsBackendInUse(err) {
		return v1alpha1.ReasonBackendInUse, inUseMessage(cr.Spec.ForProvider, ambiguous), ambiguous
	}
	return v1alpha1.ReasonTierApplyFailed, refusedMessage("add tier", cr, err, ambiguous), ambiguous
}

func keyOr(key, def string) string {
	if key == "" {
		return def
	}
	return key
}
