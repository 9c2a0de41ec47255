package tenant

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
)

func appAccess() jsonMap {
	return jsonMap{"name": "app", "buckets": []any{"app-data"}, "access": "ReadWrite"}
}

func withAccess(entries ...jsonMap) specModifier {
	return func(s jsonMap) { s["access"] = toList(entries) }
}

// An access entry renders to a BucketAccess named like the other composed
// resources, granting its buckets by name, publishing to a Secret of the
// same name, and keeping the CRD's full management policies.
func TestAccessRendersABucketAccess(t *testing.T) {
	entry := merged(appAccess(), jsonMap{"buckets": []any{"app-data", "logs.example"}, "prefix": "in/", "rotation": 3})
	rsp := runRequest(t, tenantXR(spec(withBuckets(operatorBucket(), logsBucket()), withAccess(entry))), nil)
	if n := len(rsp.GetResults()); n != 0 {
		t.Fatalf("results: %v", rsp.GetResults())
	}
	if got := desiredNames(rsp)["access-app"]; got != "tenant-a-access-app" || got != AccessName("tenant-a", "app") {
		t.Errorf("name of the composed BucketAccess: got %q, want tenant-a-access-app", got)
	}
	want := jsonMap{"rotation": float64(3), "buckets": []any{
		jsonMap{"bucket": "app-data", "access": "ReadWrite", "prefix": "in/"},
		jsonMap{"bucket": "logs.example", "access": "ReadWrite", "prefix": "in/"},
	}}
	if diff := cmp.Diff(asJSON(t, want), forProvider(t, rsp, "access-app")); diff != "" {
		t.Errorf("forProvider: -want +got:\n%s", diff)
	}
	s := rsp.GetDesired().GetResources()["access-app"].GetResource().GetFields()["spec"].GetStructValue().GetFields()
	if got := s["writeConnectionSecretToRef"].GetStructValue().GetFields()["name"].GetStringValue(); got != "tenant-a-access-app" {
		t.Errorf("writeConnectionSecretToRef.name: got %q, want tenant-a-access-app", got)
	}
	if _, set := s["managementPolicies"]; set {
		t.Error("the BucketAccess sets managementPolicies; the CRD's full default must apply, so that deleting it revokes the key")
	}
}

func TestInvalidAccessIsFatal(t *testing.T) {
	cases := map[string]invalidCase{
		"BucketNotOwn":     {reason: "An entry grants only the Tenant's own buckets.", xr: tenantXR(spec(withAccess(merged(appAccess(), jsonMap{"buckets": []any{"other-team"}})))), want: "access[0].buckets[0]"},
		"BucketTwice":      {reason: "A bucket once per entry.", xr: tenantXR(spec(withAccess(merged(appAccess(), jsonMap{"buckets": []any{"app-data", "app-data"}})))), want: "access[0].buckets[1]"},
		"NoBuckets":        {reason: "An entry grants at least one bucket.", xr: tenantXR(spec(withAccess(merged(appAccess(), jsonMap{"buckets": []any{}})))), want: "access[0].buckets"},
		"UnknownAccess":    {reason: "ReadOnly or ReadWrite.", xr: tenantXR(spec(withAccess(merged(appAccess(), jsonMap{"access": "Admin"})))), want: "access[0].access"},
		"NameNotALabel":    {reason: "The name becomes part of object names.", xr: tenantXR(spec(withAccess(merged(appAccess(), jsonMap{"name": "App_1"})))), want: "access[0].name"},
		"DuplicateName":    {reason: "Two entries with one name would compose one BucketAccess twice.", xr: tenantXR(spec(withAccess(appAccess(), appAccess()))), want: "access[1].name"},
		"WithoutAnyBucket": {reason: "A Tenant without buckets has none to grant.", xr: tenantXR(spec(withBuckets(), withAccess(appAccess()))), want: "access[0].buckets[0]"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rsp := runRequest(t, tc.xr, nil)
			var got []string
			for _, r := range rsp.GetResults() {
				if r.GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
					t.Errorf("%s\nresult %q is not fatal", tc.reason, r.GetMessage())
				}
				got = append(got, strings.SplitN(r.GetMessage(), ": ", 2)[0])
			}
			if diff := cmp.Diff([]string{tc.want}, got); diff != "" {
				t.Errorf("%s\nfatal results: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// The access rows follow the BucketAccesses and name their Secrets.
func TestAccessRows(t *testing.T) {
	refused := observedMR("BucketAccess", "tenant-a-access-app", jsonMap{}, conditions(
		cond("Ready", "False", "BucketNotManaged", "No Bucket of this namespace manages bucket"), cond("Synced", "False", "ReconcileError", "x")))
	cases := map[string]struct {
		observed map[string]jsonMap
		want     []AccessStatus
	}{
		"NotYetCreated": {want: []AccessStatus{{ItemStatus: ItemStatus{Name: "app", Reason: "Creating", Message: "waiting for the BucketAccess to be created"},
			SecretName: "tenant-a-access-app"}}},
		"Ready": {observed: map[string]jsonMap{"access-app": readyMR("BucketAccess", "tenant-a-access-app")},
			want: []AccessStatus{{ItemStatus: ItemStatus{Name: "app", Ready: true, Synced: true, Reason: "Available"}, SecretName: "tenant-a-access-app"}}},
		"Refused": {observed: map[string]jsonMap{"access-app": refused},
			want: []AccessStatus{{ItemStatus: ItemStatus{Name: "app", Reason: "BucketNotManaged", Message: "No Bucket of this namespace manages bucket"},
				SecretName: "tenant-a-access-app"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rsp := runRequest(t, tenantXR(spec(withAccess(appAccess()))), tc.observed)
			if diff := cmp.Diff(tc.want, statusOf(t, rsp).Access); diff != "" {
				t.Errorf("status.access: -want +got:\n%s", diff)
			}
		})
	}
}

// statusOf decodes the status the function wrote on the composite.
func statusOf(t *testing.T, rsp *fnv1.RunFunctionResponse) TenantStatus {
	t.Helper()
	b, err := json.Marshal(rendered(t, rsp).Composite.(map[string]any)["status"])
	if err != nil {
		t.Fatal(err)
	}
	var st TenantStatus
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st
}
