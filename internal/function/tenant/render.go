package tenant

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/crossplane/function-sdk-go/resource"
	"github.com/crossplane/function-sdk-go/resource/composed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A target is what every resource composed for one Tenant shares.
type target struct {
	// xr is the composite resource's name, the prefix of composed names.
	xr string

	// namespace receives the composed resources: the Tenant's, or the
	// TenantClaim's for a legacy XTenant.
	namespace string

	// pc is the configuration every composed resource uses.
	pc xpv2.ProviderConfigReference
}

// objectMeta is the metadata of the composed resource called name.
func (t target) objectMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: t.namespace}
}

// managed is the managed resource spec every composed resource shares. The
// management policies are left to the CRD's Retain-only default.
func (t target) managed() xpv2.ManagedResourceSpec {
	pc := t.pc
	return xpv2.ManagedResourceSpec{ProviderConfigReference: &pc}
}

// tier is the Tier composed for a tier entry.
func (t target) tier(in TenantTier) *v1alpha1.Tier {
	return &v1alpha1.Tier{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: v1alpha1.TierKind},
		ObjectMeta: t.objectMeta(TierName(t.xr, in.Name)),
		Spec: v1alpha1.TierSpec{
			ManagedResourceSpec: t.managed(),
			ForProvider: v1alpha1.TierParameters{
				Name:                 in.Name,
				Type:                 in.Type,
				Endpoint:             in.Endpoint,
				Bucket:               in.Bucket,
				Prefix:               in.Prefix,
				Region:               in.Region,
				StorageClass:         in.StorageClass,
				CredentialsSecretRef: in.CredsSecret,
				Force:                in.Force,
			},
		},
	}
}

// bucket is the Bucket composed for a bucket entry. Its external name is the
// bucket's name.
func (t target) bucket(in TenantBucket) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: v1alpha1.BucketKind},
		ObjectMeta: t.objectMeta(BucketName(t.xr, in.Name)),
		Spec: v1alpha1.BucketSpec{
			ManagedResourceSpec: t.managed(),
			ForProvider:         in.BucketParameters,
		},
	}
	if in.Deletion == DeletionDeleteIfEmpty {
		b.Spec.ManagementPolicies = deleteIfEmpty
	}
	meta.SetExternalName(b, in.Name)
	return b
}

// deleteIfEmpty are the management policies of a Bucket whose bucket is
// deleted when empty: the Bucket default plus Delete.
var deleteIfEmpty = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
	xpv2.ManagementActionUpdate, xpv2.ManagementActionDelete, xpv2.ManagementActionLateInitialize}

// lifecycle is the BucketLifecycle composed for a bucket entry with a
// lifecycle. It references the composed Bucket; state Absent renders an
// empty rule list, which removes the bucket's lifecycle configuration.
func (t target) lifecycle(in TenantBucket, rules []v1alpha1.LifecycleRule) *v1alpha1.BucketLifecycle {
	if rules == nil {
		rules = []v1alpha1.LifecycleRule{}
	}
	return &v1alpha1.BucketLifecycle{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: v1alpha1.BucketLifecycleKind},
		ObjectMeta: t.objectMeta(LifecycleName(t.xr, in.Name)),
		Spec: v1alpha1.BucketLifecycleSpec{
			ManagedResourceSpec: t.managed(),
			ForProvider: v1alpha1.BucketLifecycleParameters{
				BucketRef: &xpv2.NamespacedReference{Name: BucketName(t.xr, in.Name)},
				Rules:     rules,
			},
		},
	}
}

// render returns the desired composed resources of a valid Tenant, keyed by
// entry name, with their readiness taken from the observed resources.
func render(t target, s TenantSpec, observed map[resource.Name]resource.ObservedComposed) (map[resource.Name]*resource.DesiredComposed, error) {
	out := map[resource.Name]*resource.DesiredComposed{}
	add := func(key resource.Name, o runtime.Object) error {
		u, err := toComposed(o)
		if err != nil {
			return errors.Wrapf(err, "cannot render %s", key)
		}
		out[key] = &resource.DesiredComposed{Resource: u, Ready: readiness(observed, key)}
		return nil
	}
	for _, tr := range s.Tiers {
		if err := add(resourceKey(partTier, tr.Name), t.tier(tr)); err != nil {
			return nil, err
		}
	}
	tiers := newTierIndex(t.xr, s.Tiers, observed)
	for _, b := range s.Buckets {
		if err := add(resourceKey(partBucket, b.Name), t.bucket(b)); err != nil {
			return nil, err
		}
		if b.Lifecycle == nil {
			continue
		}
		key := resourceKey(partLifecycle, b.Name)
		rules := tiers.rules(*b.Lifecycle, storageClassesIn(observed, key))
		if err := add(key, t.lifecycle(b, rules)); err != nil {
			return nil, err
		}
	}
	err := renderAccess(t, s.Access, func(key resource.Name, a *v1alpha1.BucketAccess) error { return add(key, a) })
	return out, err
}

// toComposed converts a typed managed resource to the unstructured form the
// SDK sends, without the empty status and creation timestamp that the typed
// form would add to the applied fields.
func toComposed(o runtime.Object) (*composed.Unstructured, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil, errors.Wrap(err, "cannot convert to unstructured")
	}
	delete(m, "status")
	unstructured.RemoveNestedField(m, "metadata", "creationTimestamp")
	return &composed.Unstructured{Unstructured: unstructured.Unstructured{Object: m}}, nil
}
