package tenant

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// jsonFields returns the JSON field names of a struct type, with inlined
// structs flattened.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" && (f.Anonymous || strings.Contains(opts, "inline")) {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// A mirrorCase pairs a Tenant input type with the provider type it mirrors.
type mirrorCase struct {
	reason   string
	tenant   reflect.Type
	provider reflect.Type
	rename   map[string]string // provider field -> Tenant field
	extra    []string          // Tenant-only fields
	omit     []string          // provider fields a Tenant resolves itself
}

func mirrorCases() map[string]mirrorCase {
	return map[string]mirrorCase{
		"Rule": {
			reason: "A Tenant rule has every field of a BucketLifecycle rule plus the operator's singular forms.",
			tenant: reflect.TypeFor[TenantRule](), provider: reflect.TypeFor[v1alpha1.LifecycleRule](),
			extra: []string{"noncurrentVersionTransition", "transition"},
		},
		"Transition": {
			reason: "A Tenant transition names its tier by storage class; the function renders the tierRef.",
			tenant: reflect.TypeFor[TenantTransition](), provider: reflect.TypeFor[v1alpha1.Transition](),
			omit: []string{"tierRef", "tierSelector"},
		},
		"NoncurrentVersionTransition": {
			reason: "As for transitions.",
			tenant: reflect.TypeFor[TenantNoncurrentVersionTransition](), provider: reflect.TypeFor[v1alpha1.NoncurrentVersionTransition](),
			omit: []string{"tierRef", "tierSelector"},
		},
		"Tier": {
			reason: "A Tenant tier has every Tier setting, with the operator's credsSecret name.",
			tenant: reflect.TypeFor[TenantTier](), provider: reflect.TypeFor[v1alpha1.TierParameters](),
			rename: map[string]string{"credentialsSecretRef": "credsSecret"},
		},
		"Bucket": {
			reason: "A Tenant bucket has every Bucket setting plus its name and lifecycle.",
			tenant: reflect.TypeFor[TenantBucket](), provider: reflect.TypeFor[v1alpha1.BucketParameters](),
			extra: []string{"deletion", "lifecycle", "name"},
		},
	}
}

// The Tenant's input types mirror the provider's, so every field the
// provider models can be declared on a Tenant and maps one-to-one.
func TestInputMirrorsTheProviderModel(t *testing.T) {
	for name, tc := range mirrorCases() {
		t.Run(name, func(t *testing.T) {
			var want []string
			for _, f := range jsonFields(tc.provider) {
				if r, ok := tc.rename[f]; ok {
					f = r
				}
				want = append(want, f)
			}
			want = append(want, tc.extra...)
			want = slices.DeleteFunc(want, func(f string) bool { return slices.Contains(tc.omit, f) })
			sort.Strings(want)
			if diff := cmp.Diff(want, jsonFields(tc.tenant)); diff != "" {
				t.Errorf("%s\nJSON fields: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
