package tenant

import (
	"context"
	"encoding/json"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/resource"
)

// jsonMap is a JSON object under construction.
type jsonMap = map[string]any

// operatorTier is the tier of the RustFS operator's Tenant example.
func operatorTier() jsonMap {
	return jsonMap{
		"name": "COLD", "type": "S3", "endpoint": "https://s3.example.com", "bucket": "rustfs-cold",
		"prefix": "rustfs-a/", "region": "us-east-1", "credsSecret": jsonMap{"name": "cold-tier"},
	}
}

// operatorBucket is the bucket of the RustFS operator's Tenant example.
func operatorBucket() jsonMap {
	return jsonMap{"name": "app-data", "lifecycle": jsonMap{"state": "Present", "rules": []any{operatorRule()}}}
}

// operatorRule is the rule of the RustFS operator's Tenant example.
func operatorRule() jsonMap {
	return jsonMap{
		"id": "to-cold", "status": "Enabled", "filter": jsonMap{"prefix": ""},
		"transition": jsonMap{"days": 7, "storageClass": "COLD"},
	}
}

// A specModifier changes a Tenant spec fixture.
type specModifier func(s jsonMap)

// spec is the operator-shaped Tenant spec, changed by mods.
func spec(mods ...specModifier) jsonMap {
	s := jsonMap{"tiers": []any{operatorTier()}, "buckets": []any{operatorBucket()}}
	for _, m := range mods {
		m(s)
	}
	return s
}

func withTiers(tiers ...jsonMap) specModifier {
	return func(s jsonMap) { s["tiers"] = toList(tiers) }
}

func withBuckets(buckets ...jsonMap) specModifier {
	return func(s jsonMap) { s["buckets"] = toList(buckets) }
}

func withProviderConfig(kind, name string) specModifier {
	return func(s jsonMap) { s["providerConfigRef"] = jsonMap{"kind": kind, "name": name} }
}

// at sets field of the first entry of list (tiers or buckets) to v.
func at(list, field string, v any) specModifier {
	return func(s jsonMap) { s[list].([]any)[0].(jsonMap)[field] = v }
}

// rule sets field of the first rule of the first bucket to v; nil deletes it.
func rule(field string, v any) specModifier {
	return func(s jsonMap) {
		r := s["buckets"].([]any)[0].(jsonMap)["lifecycle"].(jsonMap)["rules"].([]any)[0].(jsonMap)
		if v == nil {
			delete(r, field)
			return
		}
		r[field] = v
	}
}

func toList(ms []jsonMap) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// merged returns a copy of m with the fields of with set.
func merged(m jsonMap, with jsonMap) jsonMap {
	out := jsonMap{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range with {
		out[k] = v
	}
	return out
}

// tenantXR is a namespaced Tenant tenant-a in team-a with spec s.
func tenantXR(s jsonMap) jsonMap {
	return jsonMap{
		"apiVersion": "storage.rustfs.crossplane.io/v1alpha1", "kind": "Tenant",
		"metadata": jsonMap{"name": "tenant-a", "namespace": "team-a"}, "spec": s,
	}
}

// xtenantXR is a legacy cluster-scoped XTenant with the given labels.
func xtenantXR(s jsonMap, labels jsonMap) jsonMap {
	return jsonMap{
		"apiVersion": "storage.rustfs.crossplane.io/v1alpha1", "kind": "XTenant",
		"metadata": jsonMap{"name": "tenant-a-x7k2p", "labels": labels}, "spec": s,
	}
}

// toStruct converts a JSON-shaped value to a protobuf Struct.
func toStruct(t *testing.T, m jsonMap) *structpb.Struct {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return resource.MustStructJSON(string(b))
}

// runRequest runs the function on xr with the observed composed resources.
func runRequest(t *testing.T, xr jsonMap, observed map[string]jsonMap) *fnv1.RunFunctionResponse {
	t.Helper()
	req := &fnv1.RunFunctionRequest{
		Meta:     &fnv1.RequestMeta{Tag: "test"},
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: toStruct(t, xr)}, Resources: map[string]*fnv1.Resource{}},
	}
	for k, v := range observed {
		req.Observed.Resources[k] = &fnv1.Resource{Resource: toStruct(t, v)}
	}
	rsp, err := NewFunction(logging.NewNopLogger()).RunFunction(context.Background(), req)
	if err != nil {
		t.Fatalf("RunFunction: %v", err)
	}
	return rsp
}

// desiredNames maps each desired composed resource key to its name.
func desiredNames(rsp *fnv1.RunFunctionResponse) map[string]string {
	out := map[string]string{}
	for k, r := range rsp.GetDesired().GetResources() {
		out[k] = r.GetResource().GetFields()["metadata"].GetStructValue().GetFields()["name"].GetStringValue()
	}
	return out
}

// conditions is an observed status with the given conditions.
func conditions(cs ...jsonMap) jsonMap {
	return jsonMap{"conditions": toList(cs)}
}

func cond(typ, status, reason, message string) jsonMap {
	return jsonMap{"type": typ, "status": status, "reason": reason, "message": message, "lastTransitionTime": "2026-11-30T00:00:00Z"}
}

// observedMR is an observed composed resource of kind with a spec and
// status.
func observedMR(kind, name string, spec, status jsonMap) jsonMap {
	return jsonMap{
		"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": kind,
		"metadata": jsonMap{"name": name, "namespace": "team-a"}, "spec": spec, "status": status,
	}
}

// readyMR is an observed, Ready and Synced composed resource.
func readyMR(kind, name string) jsonMap {
	return observedMR(kind, name, jsonMap{}, conditions(
		cond("Ready", "True", "Available", ""), cond("Synced", "True", "ReconcileSuccess", "")))
}
