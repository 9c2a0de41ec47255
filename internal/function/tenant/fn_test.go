package tenant

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
)

// A rendering is the part of a response the tests compare, as JSON-shaped
// values: desired composed resources, their readiness, the desired
// composite and the results.
type rendering struct {
	Resources map[string]any
	Ready     map[string]string
	Composite any
	Results   []string
}

// rendered summarises a response.
func rendered(t *testing.T, rsp *fnv1.RunFunctionResponse) rendering {
	t.Helper()
	r := rendering{Resources: map[string]any{}, Ready: map[string]string{}}
	for k, res := range rsp.GetDesired().GetResources() {
		r.Resources[k] = asJSON(t, res.GetResource())
		r.Ready[k] = res.GetReady().String()
	}
	if c := rsp.GetDesired().GetComposite(); c != nil {
		r.Composite = asJSON(t, c.GetResource())
	}
	for _, res := range rsp.GetResults() {
		r.Results = append(r.Results, res.GetSeverity().String()+": "+res.GetMessage())
	}
	return r
}

// asJSON converts a protobuf message or a JSON-shaped Go value to plain
// JSON values, so numbers compare equal whatever their Go type.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	var b []byte
	var err error
	if m, ok := v.(proto.Message); ok {
		b, err = protojson.Marshal(m)
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func wantTier(forProvider jsonMap) jsonMap {
	fp := merged(jsonMap{
		"name": "COLD", "type": "S3", "endpoint": "https://s3.example.com", "bucket": "rustfs-cold",
		"prefix": "rustfs-a/", "region": "us-east-1", "credentialsSecretRef": jsonMap{"name": "cold-tier"},
	}, forProvider)
	return jsonMap{
		"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "Tier",
		"metadata": jsonMap{"name": "tenant-a-tier-cold", "namespace": "team-a"},
		"spec":     jsonMap{"providerConfigRef": jsonMap{"kind": "ClusterProviderConfig", "name": "default"}, "forProvider": fp},
	}
}

func wantBucket() jsonMap {
	return jsonMap{
		"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "Bucket",
		"metadata": jsonMap{
			"name": "tenant-a-bucket-app-data", "namespace": "team-a",
			"annotations": jsonMap{"crossplane.io/external-name": "app-data"},
		},
		"spec": jsonMap{"providerConfigRef": jsonMap{"kind": "ClusterProviderConfig", "name": "default"}, "forProvider": jsonMap{}},
	}
}

func wantLifecycle(rules ...any) jsonMap {
	if rules == nil {
		rules = []any{}
	}
	return jsonMap{
		"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "BucketLifecycle",
		"metadata": jsonMap{"name": "tenant-a-lifecycle-app-data", "namespace": "team-a"},
		"spec": jsonMap{
			"providerConfigRef": jsonMap{"kind": "ClusterProviderConfig", "name": "default"},
			"forProvider":       jsonMap{"bucketRef": jsonMap{"name": "tenant-a-bucket-app-data"}, "rules": rules},
		},
	}
}

// wantRule is the operator rule as rendered, with the given transition.
func wantRule(transition jsonMap) jsonMap {
	return jsonMap{"id": "to-cold", "status": "Enabled", "filter": jsonMap{}, "transitions": []any{transition}}
}

// toCold is the rendered transition to the Tenant's tier COLD.
func toCold(storageClass string) jsonMap {
	t := jsonMap{"days": 7, "tierRef": jsonMap{"name": "tenant-a-tier-cold"}}
	if storageClass != "" {
		t["storageClass"] = storageClass
	}
	return t
}

func pendingRow(name, kind string) jsonMap {
	return jsonMap{"name": name, "ready": false, "synced": false, "reason": "Creating", "message": "waiting for the " + kind + " to be created"}
}

// wantResources are the operator example's composed resources; the
// transition carries storageClass when it is not empty.
func wantResources(storageClass string) map[string]any {
	return map[string]any{
		"tier-COLD":          wantTier(nil),
		"bucket-app-data":    wantBucket(),
		"lifecycle-app-data": wantLifecycle(wantRule(toCold(storageClass))),
	}
}

// readies is the desired readiness of the operator example's resources.
func readies(tier, bucket, lifecycle string) map[string]string {
	return map[string]string{"tier-COLD": tier, "bucket-app-data": bucket, "lifecycle-app-data": lifecycle}
}

// rows is the desired composite with the given status rows, one tier and
// one bucket, neither in conflict.
func rows(tiers, buckets jsonMap) jsonMap {
	count := func(row jsonMap) string {
		if row["ready"] == true {
			return "1/1"
		}
		return "0/1"
	}
	summary := jsonMap{"tiers": count(tiers), "buckets": count(buckets), "conflicts": 0}
	return jsonMap{"status": jsonMap{"tiers": []any{tiers}, "buckets": []any{buckets}, "summary": summary}}
}

// A runCase is a RunFunction input and the rendering it must produce.
type runCase struct {
	reason    string
	xr        jsonMap
	observed  map[string]jsonMap
	resources map[string]any
	ready     map[string]string
	composite jsonMap
}

func runCases() map[string]runCase {
	observedLifecycle := observedMR("BucketLifecycle", "tenant-a-lifecycle-app-data", jsonMap{"forProvider": jsonMap{
		"bucket": "app-data", "rules": []any{wantRule(toCold("COLD"))},
	}}, jsonMap{})
	return map[string]runCase{
		"OperatorExample": {
			reason:    "The operator-shaped Tenant renders a Tier, a Bucket and a BucketLifecycle whose transition references the Tier; nothing is ready yet.",
			xr:        tenantXR(spec()),
			resources: wantResources(""),
			ready:     readies("READY_FALSE", "READY_FALSE", "READY_FALSE"),
			composite: rows(pendingRow("COLD", "Tier"), pendingRow("app-data", "Bucket")),
		},
		"ReadyTierAddsStorageClass": {
			reason: "Once the composed Tier is observed Ready, the transition also carries the tier name, as the provider would resolve it.",
			xr:     tenantXR(spec()),
			observed: map[string]jsonMap{
				"tier-COLD":       readyMR("Tier", "tenant-a-tier-cold"),
				"bucket-app-data": readyMR("Bucket", "tenant-a-bucket-app-data"),
			},
			resources: wantResources("COLD"),
			ready:     readies("READY_TRUE", "READY_TRUE", "READY_FALSE"),
			composite: rows(jsonMap{"name": "COLD", "ready": true, "synced": true, "reason": "Available"}, pendingRow("app-data", "BucketLifecycle")),
		},
		"ResolvedStorageClassIsKept": {
			reason:    "A storage class the observed BucketLifecycle already holds is kept while the Tier is not Ready, so the spec does not flap.",
			xr:        tenantXR(spec()),
			observed:  map[string]jsonMap{"lifecycle-app-data": observedLifecycle},
			resources: wantResources("COLD"),
			ready:     readies("READY_FALSE", "READY_FALSE", "READY_FALSE"),
			composite: rows(pendingRow("COLD", "Tier"), pendingRow("app-data", "Bucket")),
		},
	}
}

func TestRunFunction(t *testing.T) {
	for name, tc := range runCases() {
		t.Run(name, func(t *testing.T) {
			got := rendered(t, runRequest(t, tc.xr, tc.observed))
			want := rendering{
				Resources: asJSON(t, tc.resources).(map[string]any),
				Ready:     tc.ready,
				Composite: asJSON(t, tc.composite),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s\nRunFunction(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAbsentLifecycleRendersAnEmptyRuleList(t *testing.T) {
	xr := tenantXR(spec(withBuckets(jsonMap{"name": "app-data", "lifecycle": jsonMap{"state": "Absent"}})))
	rsp := runRequest(t, xr, nil)
	lc, ok := rsp.GetDesired().GetResources()["lifecycle-app-data"]
	if !ok {
		t.Fatalf("state Absent: no BucketLifecycle rendered; got %v", desiredNames(rsp))
	}
	b, err := protojson.Marshal(lc.GetResource())
	if err != nil {
		t.Fatal(err)
	}
	// protojson may or may not put a space after the colon.
	compact := strings.ReplaceAll(string(b), " ", "")
	if !strings.Contains(compact, `"rules":[]`) {
		t.Errorf("state Absent: BucketLifecycle JSON has no empty rules list (it must not be null or absent):\n%s", b)
	}
	if diff := cmp.Diff(asJSON(t, wantLifecycle()), asJSON(t, lc.GetResource())); diff != "" {
		t.Errorf("state Absent: -want +got:\n%s", diff)
	}
}
