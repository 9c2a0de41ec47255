package tenant

import (
	"context"
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/resource"
)

func warmTier() jsonMap {
	return merged(operatorTier(), jsonMap{"name": "WARM_1", "prefix": "rustfs-a-warm/", "credsSecret": jsonMap{"name": "warm-tier"}})
}

func logsBucket() jsonMap { return jsonMap{"name": "logs.example"} }

func TestNamesAreKeyedByEntryName(t *testing.T) {
	base := desiredNames(runRequest(t, tenantXR(spec()), nil))
	cases := map[string]struct {
		reason string
		spec   jsonMap
		extra  map[string]string
	}{
		"TierAddedFirst": {
			reason: "A tier added before the others keeps every other composed resource's key and name.",
			spec:   spec(withTiers(warmTier(), operatorTier())),
			extra:  map[string]string{"tier-WARM_1": "tenant-a-tier-warm-1-50951661"},
		},
		"BucketAddedFirst": {
			reason: "A bucket added before the others keeps every other composed resource's key and name.",
			spec:   spec(withBuckets(logsBucket(), operatorBucket())),
			extra:  map[string]string{"bucket-logs.example": "tenant-a-bucket-logs-example-b37efa3b"},
		},
		"TierRemoved": {
			reason: "Removing the only tier leaves the bucket and lifecycle names alone; the transition then names a tier managed elsewhere.",
			spec:   spec(withTiers()),
			extra:  map[string]string{"tier-COLD": ""},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := desiredNames(runRequest(t, tenantXR(tc.spec), nil))
			want := maps.Clone(base)
			for k, v := range tc.extra {
				if v == "" {
					delete(want, k)
					continue
				}
				want[k] = v
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s\nkey -> name: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// forProvider returns spec.forProvider of the desired resource at key.
func forProvider(t *testing.T, rsp *fnv1.RunFunctionResponse, key string) any {
	t.Helper()
	r, ok := rsp.GetDesired().GetResources()[key]
	if !ok {
		t.Fatalf("no desired resource %q; got %v (results %v)", key, desiredNames(rsp), rsp.GetResults())
	}
	return asJSON(t, r.GetResource().GetFields()["spec"].GetStructValue().GetFields()["forProvider"])
}

// A variantCase is a Tenant spec and the forProvider it renders at key.
type variantCase struct {
	reason string
	spec   jsonMap
	key    string
	want   any
}

// lifecycleVariants render lifecycle rules.
func lifecycleVariants() map[string]variantCase {
	noncurrent := jsonMap{"noncurrentDays": 30, "newerNoncurrentVersions": 2, "storageClass": "COLD"}
	return map[string]variantCase{
		"TierManagedElsewhere": {
			reason: "A storage class that names no tier of the Tenant passes through, without a tierRef.",
			spec:   spec(rule("transition", jsonMap{"date": "2027-01-01", "storageClass": "GLACIER"})),
			key:    "lifecycle-app-data",
			want: jsonMap{"bucketRef": jsonMap{"name": "tenant-a-bucket-app-data"}, "rules": []any{
				jsonMap{"id": "to-cold", "status": "Enabled", "filter": jsonMap{}, "transitions": []any{jsonMap{"date": "2027-01-01", "storageClass": "GLACIER"}}},
			}},
		},
		"TransitionsAndNoncurrentTransition": {
			reason: "A transitions list is kept as is and a singular noncurrentVersionTransition becomes a one-element list; both reference the Tenant's tier.",
			spec: spec(rule("transition", nil), rule("status", "Disabled"), rule("filter", nil),
				rule("transitions", []any{jsonMap{"days": 0, "storageClass": "COLD"}}), rule("noncurrentVersionTransition", noncurrent)),
			key: "lifecycle-app-data",
			want: jsonMap{"bucketRef": jsonMap{"name": "tenant-a-bucket-app-data"}, "rules": []any{jsonMap{
				"id": "to-cold", "status": "Disabled",
				"transitions":                  []any{jsonMap{"days": 0, "tierRef": jsonMap{"name": "tenant-a-tier-cold"}}},
				"noncurrentVersionTransitions": []any{jsonMap{"noncurrentDays": 30, "newerNoncurrentVersions": 2, "tierRef": jsonMap{"name": "tenant-a-tier-cold"}}},
			}}},
		},
		"DefaultRuleStatus": {
			reason: "A rule without status is Enabled, the CRD default, so the rendered spec matches what the API server stores.",
			spec:   spec(rule("status", nil), rule("filter", nil), rule("expiration", jsonMap{"days": 365})),
			key:    "lifecycle-app-data",
			want: jsonMap{"bucketRef": jsonMap{"name": "tenant-a-bucket-app-data"}, "rules": []any{jsonMap{
				"id": "to-cold", "status": "Enabled", "expiration": jsonMap{"days": 365},
				"transitions": []any{jsonMap{"days": 7, "tierRef": jsonMap{"name": "tenant-a-tier-cold"}}},
			}}},
		},
	}
}

// resourceVariants render Bucket and Tier settings.
func resourceVariants() map[string]variantCase {
	return map[string]variantCase{
		"BucketSettings": {
			reason: "A bucket's region, objectLock and versioning go to the Bucket's forProvider.",
			spec:   spec(withBuckets(jsonMap{"name": "app-data", "region": "eu-west-1", "objectLock": true, "versioning": "Enabled"})),
			key:    "bucket-app-data",
			want:   jsonMap{"region": "eu-west-1", "objectLock": true, "versioning": "Enabled"},
		},
		"TierOptions": {
			reason: "A tier's storage class, force flag and Secret keys reach the Tier.",
			spec: spec(at("tiers", "storageClass", "GLACIER"), at("tiers", "force", true),
				at("tiers", "credsSecret", jsonMap{"name": "cold-tier", "accessKeyKey": "ak", "secretKeyKey": "sk"})),
			key: "tier-COLD",
			want: merged(wantTier(nil)["spec"].(jsonMap)["forProvider"].(jsonMap), jsonMap{
				"storageClass": "GLACIER", "force": true,
				"credentialsSecretRef": jsonMap{"name": "cold-tier", "accessKeyKey": "ak", "secretKeyKey": "sk"},
			}),
		},
	}
}

func TestRenderVariants(t *testing.T) {
	cases := lifecycleVariants()
	maps.Copy(cases, resourceVariants())
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := forProvider(t, runRequest(t, tenantXR(tc.spec), nil), tc.key)
			if diff := cmp.Diff(asJSON(t, tc.want), got); diff != "" {
				t.Errorf("%s\nspec.forProvider of %s: -want +got:\n%s", tc.reason, tc.key, diff)
			}
		})
	}
}

func TestBucketWithoutLifecycleHasNoBucketLifecycle(t *testing.T) {
	rsp := runRequest(t, tenantXR(spec(withBuckets(jsonMap{"name": "app-data"}))), nil)
	want := map[string]string{"tier-COLD": "tenant-a-tier-cold", "bucket-app-data": "tenant-a-bucket-app-data"}
	if diff := cmp.Diff(want, desiredNames(rsp)); diff != "" {
		t.Errorf("a bucket without lifecycle must render no BucketLifecycle (existing rules are retained): -want +got:\n%s", diff)
	}
}

// composedMeta returns the namespace and providerConfigRef of every desired
// composed resource.
func composedMeta(t *testing.T, rsp *fnv1.RunFunctionResponse) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, r := range rsp.GetDesired().GetResources() {
		f := r.GetResource().GetFields()
		out[k] = asJSON(t, jsonMap{
			"namespace": f["metadata"].GetStructValue().GetFields()["namespace"].GetStringValue(),
			"pc":        asJSON(t, f["spec"].GetStructValue().GetFields()["providerConfigRef"]),
		})
	}
	return out
}

func TestComposedNamespaceAndProviderConfig(t *testing.T) {
	every := func(ns, kind, name string) map[string]any {
		m := jsonMap{"namespace": ns, "pc": jsonMap{"kind": kind, "name": name}}
		return map[string]any{"tier-COLD": m, "bucket-app-data": m, "lifecycle-app-data": m}
	}
	cases := map[string]struct {
		reason string
		xr     jsonMap
		want   map[string]any
	}{
		"NamespacedTenant": {
			reason: "A Tenant composes into its own namespace with its providerConfigRef.",
			xr:     tenantXR(spec(withProviderConfig("ProviderConfig", "team-a-rustfs"))),
			want:   every("team-a", "ProviderConfig", "team-a-rustfs"),
		},
		"LegacyXTenant": {
			reason: "A legacy XTenant composes into its claim's namespace, named by the crossplane.io/claim-namespace label.",
			xr:     xtenantXR(spec(), jsonMap{LabelClaimNamespace: "team-b", "crossplane.io/claim-name": "tenant-a"}),
			want:   every("team-b", "ClusterProviderConfig", "default"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := composedMeta(t, runRequest(t, tc.xr, nil))
			if diff := cmp.Diff(asJSON(t, tc.want), asJSON(t, got)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestLegacyXTenantNames(t *testing.T) {
	rsp := runRequest(t, xtenantXR(spec(), jsonMap{LabelClaimNamespace: "team-b"}), nil)
	want := map[string]string{
		"tier-COLD": "tenant-a-x7k2p-tier-cold", "bucket-app-data": "tenant-a-x7k2p-bucket-app-data",
		"lifecycle-app-data": "tenant-a-x7k2p-lifecycle-app-data",
	}
	if diff := cmp.Diff(want, desiredNames(rsp)); diff != "" {
		t.Errorf("XTenant composed names are prefixed with the XR's name: -want +got:\n%s", diff)
	}
}

func TestEarlierStepsResourcesAreKept(t *testing.T) {
	req := &fnv1.RunFunctionRequest{
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: toStruct(t, tenantXR(spec()))}},
		Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{
			"network-policy": {Resource: toStruct(t, jsonMap{"apiVersion": "v1", "kind": "ConfigMap", "metadata": jsonMap{"name": "x"}})},
		}},
	}
	rsp, err := NewFunction(logging.NewNopLogger()).RunFunction(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got := desiredNames(rsp)
	want := map[resource.Name]bool{"network-policy": true, "tier-COLD": true, "bucket-app-data": true, "lifecycle-app-data": true}
	for k := range want {
		if _, ok := got[string(k)]; !ok {
			t.Errorf("desired resource %q missing; got %v", k, got)
		}
	}
}

// A bucket's quota reaches its Bucket, and its deletion choice its
// Bucket's management policies: DeleteIfEmpty adds Delete, Retain (the
// default) leaves the Bucket's Retain-only default.
func TestBucketQuotaAndDeletion(t *testing.T) {
	cases := map[string]struct {
		bucket   jsonMap
		policies any
	}{
		"Retain":         {jsonMap{"name": "app-data", "quota": "10Gi"}, nil},
		"RetainExplicit": {jsonMap{"name": "app-data", "quota": "10Gi", "deletion": "Retain"}, nil},
		"DeleteIfEmpty": {jsonMap{"name": "app-data", "quota": "10Gi", "deletion": "DeleteIfEmpty"},
			[]any{"Observe", "Create", "Update", "Delete", "LateInitialize"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rsp := runRequest(t, tenantXR(spec(withBuckets(tc.bucket))), nil)
			if diff := cmp.Diff(asJSON(t, jsonMap{"quota": "10Gi"}), forProvider(t, rsp, "bucket-app-data")); diff != "" {
				t.Errorf("spec.forProvider: -want +got:\n%s", diff)
			}
			spec := rsp.GetDesired().GetResources()["bucket-app-data"].GetResource().GetFields()["spec"].GetStructValue().GetFields()
			var got any
			if p, ok := spec["managementPolicies"]; ok {
				got = asJSON(t, p)
			}
			if diff := cmp.Diff(tc.policies, got); diff != "" {
				t.Errorf("spec.managementPolicies: -want +got:\n%s", diff)
			}
		})
	}
}
