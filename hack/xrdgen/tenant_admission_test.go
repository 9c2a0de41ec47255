package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A tenantModifier changes an example Tenant's spec.
type tenantModifier func(spec map[string]any)

// firstOf returns the first entry of spec[list].
func firstOf(spec map[string]any, list string) map[string]any {
	return spec[list].([]any)[0].(map[string]any)
}

// firstRule returns the first rule of the first bucket.
func firstRule(spec map[string]any) map[string]any {
	return firstOf(spec, "buckets")["lifecycle"].(map[string]any)["rules"].([]any)[0].(map[string]any)
}

func setTier(field string, v any) tenantModifier {
	return func(s map[string]any) { firstOf(s, "tiers")[field] = v }
}

func setAccess(field string, v any) tenantModifier {
	return func(s map[string]any) { firstOf(s, "access")[field] = v }
}

func setRule(field string, v any) tenantModifier {
	return func(s map[string]any) { firstRule(s)[field] = v }
}

// exampleTenant is examples/tenant/tenant.yaml named name, changed by mods.
func exampleTenant(t *testing.T, name string, mods ...tenantModifier) *unstructured.Unstructured {
	t.Helper()
	u := readObject(t, filepath.Join(examplesDir, "tenant.yaml"))
	u.SetName(name)
	spec := u.Object["spec"].(map[string]any)
	for _, m := range mods {
		m(spec)
	}
	return u
}

// The examples are valid against the XRD's schema, which defaults what the
// function also defaults.
func TestExamplesAreAdmitted(t *testing.T) {
	testenv.Skip(t)
	env.InstallTenantCRDs(t)
	ctx := context.Background()
	for _, f := range []string{"tenant.yaml", "tenantclaim.yaml"} {
		if err := env.Client.Create(ctx, readObject(t, filepath.Join(examplesDir, f))); err != nil {
			t.Errorf("%s is rejected: %v", f, err)
		}
	}
	gcs := exampleTenant(t, "gcs", setTier("type", "GCS"), setTier("region", ""),
		setTier("credsSecret", map[string]any{"name": "gcs-tier", "authorizedUserKey": "key.json"}))
	wasabi := exampleTenant(t, "wasabi", setTier("type", "Wasabi"), setTier("region", "eu-central-1"),
		func(s map[string]any) { delete(firstOf(s, "tiers"), "endpoint") })
	for _, u := range []*unstructured.Unstructured{gcs, wasabi} {
		if err := env.Client.Create(ctx, u); err != nil {
			t.Errorf("a %s Tenant tier is rejected: %v", u.GetName(), err)
		}
	}
	min := exampleTenant(t, "defaults", func(s map[string]any) {
		delete(s, "providerConfigRef")
		delete(firstRule(s), "status")
		delete(firstOf(s, "buckets")["lifecycle"].(map[string]any), "state")
	})
	if err := env.Client.Create(ctx, min); err != nil {
		t.Fatalf("a Tenant relying on defaults is rejected: %v", err)
	}
	spec := min.Object["spec"].(map[string]any)
	got := map[string]any{
		"providerConfigRef": spec["providerConfigRef"],
		"state":             firstOf(spec, "buckets")["lifecycle"].(map[string]any)["state"],
		"status":            firstRule(spec)["status"],
		"credsSecret":       firstOf(spec, "tiers")["credsSecret"],
	}
	want := map[string]any{
		"providerConfigRef": map[string]any{"kind": "ClusterProviderConfig", "name": "default"},
		"state":             "Present",
		"status":            "Enabled",
		"credsSecret":       map[string]any{"name": "cold-tier", "accessKeyKey": "accesskey", "secretKeyKey": "secretkey"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults: -want +got:\n%s", diff)
	}
}

// invalidTenant is a change that makes the example Tenant invalid, and the
// admission error it must produce.
type invalidTenant struct {
	reason string
	mods   []tenantModifier
	want   string
}

func TestInvalidTenantsAreRejected(t *testing.T) {
	testenv.Skip(t)
	env.InstallTenantCRDs(t)
	i := 0
	for name, tc := range invalidTenants() {
		i++
		t.Run(name, func(t *testing.T) {
			err := env.Client.Create(context.Background(), exampleTenant(t, fmt.Sprintf("invalid-%d", i), tc.mods...))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s\nCreate: got %v, want an error containing %q", tc.reason, err, tc.want)
			}
		})
	}
}

func invalidTenants() map[string]invalidTenant {
	return map[string]invalidTenant{
		"DuplicateTierName": {
			reason: "Tier names are a map key.",
			mods:   []tenantModifier{func(s map[string]any) { s["tiers"] = append(s["tiers"].([]any), firstOf(s, "tiers")) }},
			want:   "Duplicate value",
		},
		"LowercaseTierName":    {reason: "The Tier CRD's rule, with its message.", mods: []tenantModifier{setTier("name", "cold")}, want: "name may contain only A-Z, 0-9, '_', '-' and '.'"},
		"ReservedTierName":     {reason: "The Tier CRD's rule, with its message.", mods: []tenantModifier{setTier("name", "standard")}, want: "name must not be STANDARD or REDUCED_REDUNDANCY"},
		"DotDotTierName":       {reason: "The Tier CRD's rule, with its message.", mods: []tenantModifier{setTier("name", "..")}, want: "name must not be '.' or '..'"},
		"StorageClassOnRustFS": {reason: "The remote storage class is for S3 tiers.", mods: []tenantModifier{setTier("storageClass", "GLACIER")}, want: "storageClass is the remote storage class of an S3 tier"},
		"WasabiWithEndpoint":   {reason: "RustFS derives a Wasabi endpoint from the region.", mods: []tenantModifier{setTier("type", "Wasabi")}, want: "endpoint must not be set for a Wasabi tier"},
		"AuthorizedUserKeyOnRustFS": {reason: "Only a GCS tier reads an authorized-user JSON.",
			mods: []tenantModifier{setTier("credsSecret", map[string]any{"name": "c", "authorizedUserKey": "key.json"})}, want: "credsSecret.authorizedUserKey is for a GCS tier"},
		"AzureStorageEndpoint": {reason: "RustFS reaches Azure tiers over S3, which Azure Storage endpoints do not speak.",
			mods: []tenantModifier{setTier("type", "Azure"), setTier("endpoint", "https://acct.blob.core.windows.net")}, want: "endpoint of an Azure tier must be an S3-compatible endpoint"},
		"BadBucketName": {
			reason: "Bucket names follow the S3 rules.",
			mods:   []tenantModifier{func(s map[string]any) { firstOf(s, "buckets")["name"] = "App_Data" }},
			want:   "name may contain only lowercase letters, digits",
		},
		"AbsentWithRules": {
			reason: "Absent removes the configuration.",
			mods:   []tenantModifier{func(s map[string]any) { firstOf(s, "buckets")["lifecycle"].(map[string]any)["state"] = "Absent" }},
			want:   "rules must be empty when state is Absent",
		},
		"DaysAndDate":           {reason: "Exactly one of days or date.", mods: []tenantModifier{setRule("transition", map[string]any{"days": 1, "date": "2027-01-01", "storageClass": "COLD"})}, want: "set exactly one of days or date"},
		"TransitionAndList":     {reason: "The singular and list forms are exclusive.", mods: []tenantModifier{setRule("transitions", []any{map[string]any{"days": 1, "storageClass": "COLD"}})}, want: "set transition or transitions, not both"},
		"LowercaseStorageClass": {reason: "A storage class is a tier name.", mods: []tenantModifier{setRule("transition", map[string]any{"days": 1, "storageClass": "cold"})}, want: "storageClass must be a tier name"},
		"NoAction":              {reason: "RustFS rejects rules without an action.", mods: []tenantModifier{func(s map[string]any) { delete(firstRule(s), "transition") }}, want: "a rule needs at least one action"},
		"AccessForeignBucket": {reason: "An access entry grants only the Tenant's own buckets.",
			mods: []tenantModifier{setAccess("buckets", []any{"other-team-data"})}, want: "access[].buckets must name buckets of spec.buckets"},
		"AccessBucketTwice":    {reason: "A bucket once per entry.", mods: []tenantModifier{setAccess("buckets", []any{"app-data", "app-data"})}, want: "buckets must not name the same bucket twice"},
		"AccessWildcardPrefix": {reason: "A wildcard would widen the generated policy.", mods: []tenantModifier{setAccess("prefix", "logs/*")}, want: "prefix must not contain '*', '?' or '$'"},
		"AccessDotPrefix":      {reason: "RustFS matches cleaned paths.", mods: []tenantModifier{setAccess("prefix", "a/../b/")}, want: "prefix must not contain '.' or '..' segments"},
		"AccessNameNotLabel":   {reason: "The name is part of object names.", mods: []tenantModifier{setAccess("name", "App_1")}, want: "name must be a DNS label"},
		"AccessUnknownLevel":   {reason: "ReadOnly or ReadWrite.", mods: []tenantModifier{setAccess("access", "Admin")}, want: "Unsupported value"},
		"UnknownPCKind":        {reason: "Only the provider's configuration kinds.", mods: []tenantModifier{func(s map[string]any) { s["providerConfigRef"] = map[string]any{"kind": "Secret", "name": "x"} }}, want: "Unsupported value"},
	}
}
