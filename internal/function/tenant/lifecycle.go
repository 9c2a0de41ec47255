package tenant

import (
	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/crossplane/function-sdk-go/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A tierIndex turns the storage classes of lifecycle transitions into tier
// references when they name a tier of the same Tenant.
//
// A transition to a tier of the Tenant always carries a tierRef to that
// tier's composed Tier, so the provider puts the rule only once the Tier is
// Ready. Its storageClass is rendered too once the Tier has been observed
// Ready, or once the observed BucketLifecycle already holds it: the
// transitions list is atomic under server-side apply, so a storageClass the
// provider resolved and Crossplane's next apply omitted would be removed
// and resolved again on every reconcile.
type tierIndex struct {
	xr    string
	own   map[string]bool
	ready map[string]bool
}

// newTierIndex indexes the Tenant's tiers and which of them are Ready.
func newTierIndex(xr string, tiers []TenantTier, observed map[resource.Name]resource.ObservedComposed) tierIndex {
	x := tierIndex{xr: xr, own: map[string]bool{}, ready: map[string]bool{}}
	for _, t := range tiers {
		x.own[t.Name] = true
		x.ready[t.Name] = readiness(observed, resourceKey(partTier, t.Name)) == resource.ReadyTrue
	}
	return x
}

// rules converts a lifecycle to the provider's rules; state Absent is an
// empty, non-nil list.
func (x tierIndex) rules(l TenantLifecycle, resolved map[string]bool) []v1alpha1.LifecycleRule {
	out := make([]v1alpha1.LifecycleRule, 0, len(l.Rules))
	if stateOf(l) == LifecycleAbsent {
		return out
	}
	for _, r := range l.Rules {
		out = append(out, x.rule(r, resolved))
	}
	return out
}

// rule converts one rule. The operator's singular transition and
// noncurrentVersionTransition become one-element lists.
func (x tierIndex) rule(in TenantRule, resolved map[string]bool) v1alpha1.LifecycleRule {
	r := v1alpha1.LifecycleRule{
		ID:                             in.ID,
		Status:                         in.Status,
		Filter:                         in.Filter,
		Expiration:                     in.Expiration,
		NoncurrentVersionExpiration:    in.NoncurrentVersionExpiration,
		AbortIncompleteMultipartUpload: in.AbortIncompleteMultipartUpload,
		DelMarkerExpiration:            in.DelMarkerExpiration,
	}
	if r.Status == "" {
		r.Status = v1alpha1.RuleEnabled
	}
	for _, t := range listOf(in.Transition, in.Transitions) {
		sc, ref := x.class(t.StorageClass, resolved)
		r.Transitions = append(r.Transitions, v1alpha1.Transition{Days: t.Days, Date: t.Date, StorageClass: sc, TierRef: ref})
	}
	for _, t := range listOf(in.NoncurrentVersionTransition, in.NoncurrentVersionTransitions) {
		sc, ref := x.class(t.StorageClass, resolved)
		r.NoncurrentVersionTransitions = append(r.NoncurrentVersionTransitions, v1alpha1.NoncurrentVersionTransition{
			NoncurrentDays: t.NoncurrentDays, NewerNoncurrentVersions: t.NewerNoncurrentVersions, StorageClass: sc, TierRef: ref,
		})
	}
	return r
}

// listOf returns the operator's singular form as a one-element list, or
// else the list.
func listOf[T any](one *T, many []T) []T {
	if one != nil {
		return []T{*one}
	}
	return many
}

// class returns the storage class and tier reference a transition to sc
// renders with. A tier managed elsewhere passes through as a storage class.
func (x tierIndex) class(sc string, resolved map[string]bool) (string, *xpv2.NamespacedReference) {
	if !x.own[sc] {
		return sc, nil
	}
	ref := &xpv2.NamespacedReference{Name: TierName(x.xr, sc)}
	if x.ready[sc] || resolved[sc] {
		return sc, ref
	}
	return "", ref
}

// storageClassesIn returns the storage classes the observed composed
// BucketLifecycle at key already holds in its spec.
func storageClassesIn(observed map[resource.Name]resource.ObservedComposed, key resource.Name) map[string]bool {
	out := map[string]bool{}
	o, ok := observed[key]
	if !ok {
		return out
	}
	var rules []v1alpha1.LifecycleRule
	if err := o.Resource.GetValueInto("spec.forProvider.rules", &rules); err != nil {
		return out
	}
	for _, r := range rules {
		for _, t := range r.Transitions {
			out[t.StorageClass] = true
		}
		for _, t := range r.NoncurrentVersionTransitions {
			out[t.StorageClass] = true
		}
	}
	delete(out, "")
	return out
}

// readiness is the readiness of the composed resource at key: True when it
// is observed with Ready=True.
func readiness(observed map[resource.Name]resource.ObservedComposed, key resource.Name) resource.Ready {
	o, ok := observed[key]
	if !ok || o.Resource.GetCondition(xpv2.TypeReady).Status != corev1.ConditionTrue {
		return resource.ReadyFalse
	}
	return resource.ReadyTrue
}
