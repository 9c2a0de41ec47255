package tenant

import (
	"fmt"
	"regexp"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/crossplane/function-sdk-go/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// partAccess names BucketAccesses in names and resource keys.
const partAccess = "access"

// AccessName is the metadata.name of the BucketAccess composed for the
// access entry named access, and the name of its connection Secret.
func AccessName(xr, access string) string { return composedName(xr, partAccess, access) }

// access is the BucketAccess composed for an access entry: one grant per
// bucket, by name. The provider creates the key once the Tenant's Buckets
// own their buckets (the bucket rule; it watches Buckets). Names, not
// bucketRefs: the buckets list is atomic, so applying a render would drop
// the names a reference resolver wrote and change the spec on every
// render. Unlike the other composed resources it keeps the CRD's full
// management policies: deleting it revokes the key.
func (t target) access(in TenantAccess) *v1alpha1.BucketAccess {
	name := AccessName(t.xr, in.Name)
	grants := make([]v1alpha1.BucketGrant, len(in.Buckets))
	for i, b := range in.Buckets {
		grants[i] = v1alpha1.BucketGrant{Bucket: b, Access: in.Access, Prefix: in.Prefix}
	}
	spec := t.managed()
	spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: name}
	return &v1alpha1.BucketAccess{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: v1alpha1.BucketAccessKind},
		ObjectMeta: t.objectMeta(name),
		Spec: v1alpha1.BucketAccessSpec{
			ManagedResourceSpec: spec,
			ForProvider:         v1alpha1.BucketAccessParameters{Buckets: grants, Rotation: in.Rotation},
		},
	}
}

// accessNameRE is the form of an access entry's name.
var accessNameRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

// validateAccess checks every access entry: unique names, and buckets that
// are the Tenant's own, each once.
func validateAccess(entries []TenantAccess, buckets []TenantBucket) error {
	own := map[string]bool{}
	for _, b := range buckets {
		own[b.Name] = true
	}
	return eachUnique("access", "access", entries, func(a TenantAccess) string { return a.Name },
		func(path string, a TenantAccess) error { return validateAccessEntry(path, a, own) })
}

// validateAccessEntry checks one access entry.
func validateAccessEntry(path string, a TenantAccess, own map[string]bool) error {
	checks := []check{
		{fail: len(a.Name) > 63 || !accessNameRE.MatchString(a.Name), field: ".name", msg: "must be a DNS label: a-z, 0-9 and '-', starting and ending with a letter or digit"},
		{fail: a.Access != v1alpha1.AccessReadOnly && a.Access != v1alpha1.AccessReadWrite, field: ".access", msg: fmt.Sprintf("must be ReadOnly or ReadWrite, not %q", a.Access)},
		{fail: len(a.Buckets) == 0, field: ".buckets", msg: "must name at least one of this Tenant's buckets"},
	}
	seen := map[string]bool{}
	for j, b := range a.Buckets {
		field := fmt.Sprintf(".buckets[%d]", j)
		checks = append(checks,
			check{fail: !own[b], field: field, msg: fmt.Sprintf("%q is not in spec.buckets: an access entry grants only this Tenant's own buckets", b)},
			check{fail: seen[b], field: field, msg: fmt.Sprintf("%q is named twice", b)})
		seen[b] = true
	}
	return firstFailure(path, checks...)
}

// renderAccess adds the BucketAccesses of the access entries to out.
func renderAccess(t target, entries []TenantAccess, add func(resource.Name, *v1alpha1.BucketAccess) error) error {
	for _, a := range entries {
		if err := add(resourceKey(partAccess, a.Name), t.access(a)); err != nil {
			return err
		}
	}
	return nil
}

// accessRows are the status rows of the access entries, in spec order,
// with the name of each connection Secret.
func accessRows(xr string, entries []TenantAccess, observed map[resource.Name]resource.ObservedComposed) []AccessStatus {
	var out []AccessStatus
	for _, a := range entries {
		r, _ := row(a.Name, observe(v1alpha1.BucketAccessKind, observed, resourceKey(partAccess, a.Name)))
		out = append(out, AccessStatus{ItemStatus: r, SecretName: AccessName(xr, a.Name)})
	}
	return out
}
