package tenant

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	fntenant "github.com/crossplane-contrib/provider-rustfs/internal/function/tenant"
)

// An xrModifier changes a composite resource or claim read from
// examples/tenant.
type xrModifier func(*unstructured.Unstructured)

// example reads an example of examples/tenant and applies mods.
func example(t *testing.T, file string, mods ...xrModifier) *unstructured.Unstructured {
	t.Helper()
	u, err := readExample(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		m(u)
	}
	return u
}

// withTierEndpoint points every tier at url.
func withTierEndpoint(url string) xrModifier {
	return func(u *unstructured.Unstructured) {
		tiers, _, _ := unstructured.NestedSlice(u.Object, "spec", "tiers")
		for _, tr := range tiers {
			if m, ok := tr.(map[string]any); ok {
				m["endpoint"] = url
			}
		}
		_ = unstructured.SetNestedSlice(u.Object, tiers, "spec", "tiers")
	}
}

// withProviderConfig makes the composed resources use the
// ClusterProviderConfig name.
func withProviderConfig(name string) xrModifier {
	return func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, name, "spec", "providerConfigRef", "name")
	}
}

// withoutAccess removes the access entries, for tests of what the other
// composed resources do.
func withoutAccess() xrModifier {
	return func(u *unstructured.Unstructured) { unstructured.RemoveNestedField(u.Object, "spec", "access") }
}

func withName(namespace, name string) xrModifier {
	return func(u *unstructured.Unstructured) {
		u.SetNamespace(namespace)
		u.SetName(name)
	}
}

// claimed returns the cluster-scoped XTenant that Crossplane's claim
// reconciler creates for a TenantClaim: named after the claim with a
// generated suffix, labelled with the claim's name and namespace, with the
// claim's spec and a claimRef.
func claimed(claim *unstructured.Unstructured, suffix string) *unstructured.Unstructured {
	xr := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(claim.Object)}
	xr.SetKind("XTenant")
	xr.SetName(claim.GetName() + "-" + suffix)
	xr.SetNamespace("")
	xr.SetAnnotations(nil)
	xr.SetLabels(map[string]string{
		"crossplane.io/claim-name":   claim.GetName(),
		fntenant.LabelClaimNamespace: claim.GetNamespace(),
	})
	_ = unstructured.SetNestedMap(xr.Object, map[string]any{
		"apiVersion": claim.GetAPIVersion(), "kind": claim.GetKind(),
		"namespace": claim.GetNamespace(), "name": claim.GetName(),
	}, "spec", "claimRef")
	return xr
}

// spec decodes the spec of a Tenant, XTenant or TenantClaim.
func spec(t *testing.T, u *unstructured.Unstructured) fntenant.TenantSpec {
	t.Helper()
	var s fntenant.TenantSpec
	m, _, _ := unstructured.NestedMap(u.Object, "spec")
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &s); err != nil {
		t.Fatalf("cannot decode the spec of %s %s: %v", u.GetKind(), u.GetName(), err)
	}
	return s
}

// A compositeStatus is the status a render gives a Tenant: the function's
// rows and Crossplane's conditions.
type compositeStatus struct {
	fntenant.TenantStatus  `json:",inline"`
	xpv2.ConditionedStatus `json:",inline"`
}

// status decodes the status of a rendered composite resource.
func status(t *testing.T, u *unstructured.Unstructured) compositeStatus {
	t.Helper()
	var s compositeStatus
	m, _, _ := unstructured.NestedMap(u.Object, "status")
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &s); err != nil {
		t.Fatalf("cannot decode the status of %s %s: %v", u.GetKind(), u.GetName(), err)
	}
	return s
}

// conditions decodes the conditions of a live managed resource.
func conditions(u *unstructured.Unstructured) *xpv2.ConditionedStatus {
	s := &xpv2.ConditionedStatus{}
	m, _, _ := unstructured.NestedMap(u.Object, "status")
	_ = runtime.DefaultUnstructuredConverter.FromUnstructured(m, s)
	return s
}
