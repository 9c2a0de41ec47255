package tier

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// unverified reports whether cr's tier goes unverified because cr is
// observe-only (options.ObserveOnly): a verify makes RustFS write a probe
// object on the remote. It then says so in RemoteHealthy.
func unverified(cr *v1alpha1.Tier) bool {
	if !options.ObserveOnly(cr) {
		return false
	}
	cr.SetConditions(condition(v1alpha1.TypeRemoteHealthy, corev1.ConditionUnknown, v1alpha1.ReasonObserveOnly,
		"managementPolicies allow no write, so the tier is not verified: a verify writes a probe object on the remote", cr.GetGeneration()))
	return true
}

// unneeded drops a missing or invalid credentials Secret (secretErr, a
// *connection.SecretError) of an observe-only Tier, which never writes
// the credentials: importing a tier must not wait for its Secret. Its
// credentials then show as not applied in the reconcile's diff.
func unneeded(cr *v1alpha1.Tier, secretErr error) error {
	if options.ObserveOnly(cr) && connection.IsSecretError(secretErr) {
		return nil
	}
	return secretErr
}
