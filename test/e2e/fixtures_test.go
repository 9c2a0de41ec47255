package e2e

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Names every fixture shares.
const (
	tierSecretName  = "cold-tier"
	adminSecretName = "rustfs-admin"
	remoteBucket    = "cold"
)

func ptr[T any](v T) *T { return &v }

// A tierModifier changes a Tier fixture.
type tierModifier func(*v1alpha1.Tier)

// tier returns a Tier named name in ns for the RustFS tier tierName, of
// type RustFS, on remoteBucket under the prefix "<tierName>/".
func tier(ns, name, tierName string, mods ...tierModifier) *v1alpha1.Tier {
	t := &v1alpha1.Tier{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.TierSpec{ForProvider: v1alpha1.TierParameters{
			Name:                 tierName,
			Type:                 v1alpha1.TierTypeRustFS,
			Endpoint:             "http://remote.example:9000",
			Bucket:               remoteBucket,
			Prefix:               tierName + "/",
			CredentialsSecretRef: v1alpha1.TierSecretReference{Name: tierSecretName},
		}},
	}
	for _, m := range mods {
		m(t)
	}
	return t
}

func withTierEndpoint(url string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Endpoint = url }
}

func withPrefix(p string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Prefix = p }
}

func withTierSecret(name string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.CredentialsSecretRef.Name = name }
}

func withTierPolicies(p ...xpv2.ManagementAction) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ManagementPolicies = p }
}

func withTierProviderConfig(name string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ProviderConfigReference = clusterPC(name) }
}

// A bucketModifier changes a Bucket fixture.
type bucketModifier func(*v1alpha1.Bucket)

// bucket returns a Bucket named name in ns; its RustFS bucket is name.
func bucket(ns, name string, mods ...bucketModifier) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, m := range mods {
		m(b)
	}
	return b
}

func withBucketPolicies(p ...xpv2.ManagementAction) bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ManagementPolicies = p }
}

func withBucketProviderConfig(name string) bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ProviderConfigReference = clusterPC(name) }
}

func withObjectLock() bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ForProvider.ObjectLock = true }
}

// A lifecycleModifier changes a BucketLifecycle fixture.
type lifecycleModifier func(*v1alpha1.BucketLifecycle)

// lifecycle returns a BucketLifecycle named name in ns for the bucket
// bucketName with the given rules.
func lifecycle(ns, name, bucketName string, rules []v1alpha1.LifecycleRule, mods ...lifecycleModifier) *v1alpha1.BucketLifecycle {
	l := &v1alpha1.BucketLifecycle{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.BucketLifecycleSpec{ForProvider: v1alpha1.BucketLifecycleParameters{
			Bucket: bucketName, Rules: rules,
		}},
	}
	for _, m := range mods {
		m(l)
	}
	return l
}

func withLifecyclePolicies(p ...xpv2.ManagementAction) lifecycleModifier {
	return func(l *v1alpha1.BucketLifecycle) { l.Spec.ManagementPolicies = p }
}

func withLifecycleProviderConfig(name string) lifecycleModifier {
	return func(l *v1alpha1.BucketLifecycle) { l.Spec.ProviderConfigReference = clusterPC(name) }
}

func withBucketRef(name string) lifecycleModifier {
	return func(l *v1alpha1.BucketLifecycle) {
		l.Spec.ForProvider.Bucket = ""
		l.Spec.ForProvider.BucketRef = &xpv2.NamespacedReference{Name: name}
	}
}

func clusterPC(name string) *xpv2.ProviderConfigReference {
	return &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: name}
}

// A ruleModifier changes a lifecycle rule fixture.
type ruleModifier func(*v1alpha1.LifecycleRule)

// rule returns an enabled rule with the given id and no action.
func rule(id string, mods ...ruleModifier) v1alpha1.LifecycleRule {
	r := v1alpha1.LifecycleRule{ID: id, Status: v1alpha1.RuleEnabled}
	for _, m := range mods {
		m(&r)
	}
	return r
}

// toTier transitions current versions to the tier tierName after days.
func toTier(days int32, tierName string) ruleModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.Transitions = append(r.Transitions, v1alpha1.Transition{Days: ptr(days), StorageClass: tierName})
	}
}

// toTierRef transitions current versions, after days, to the tier of the
// Tier resource named name.
func toTierRef(days int32, name string) ruleModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.Transitions = append(r.Transitions, v1alpha1.Transition{Days: ptr(days), TierRef: &xpv2.NamespacedReference{Name: name}})
	}
}

func withTransition(tr v1alpha1.Transition) ruleModifier {
	return func(r *v1alpha1.LifecycleRule) { r.Transitions = append(r.Transitions, tr) }
}

func expireAfter(days int32) ruleModifier {
	return func(r *v1alpha1.LifecycleRule) { r.Expiration = &v1alpha1.LifecycleExpiration{Days: ptr(days)} }
}

func withExpiration(e v1alpha1.LifecycleExpiration) ruleModifier {
	return func(r *v1alpha1.LifecycleRule) { r.Expiration = &e }
}

func withFilter(f v1alpha1.LifecycleFilter) ruleModifier {
	return func(r *v1alpha1.LifecycleRule) { r.Filter = &f }
}
