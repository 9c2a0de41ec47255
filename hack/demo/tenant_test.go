package main

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestTenantObjects reads examples/tenant as the demo applies it: every
// tier on the demo's remote with the demo's keys, under a prefix of its
// own, and the Tenant served by a ClusterProviderConfig for the Tenant's
// own RustFS.
func TestTenantObjects(t *testing.T) {
	d := &demo{flags: flags{root: "../..", examples: "../../examples"}}
	objs, tenant, err := d.tenantObjects(demoTarget)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		u := o.(*unstructured.Unstructured)
		line := fmt.Sprintf("%s %s/%s", u.GetKind(), u.GetNamespace(), u.GetName())
		switch u.GetKind() {
		case "Secret":
			sd, _, _ := unstructured.NestedStringMap(u.Object, "stringData")
			line += fmt.Sprintf(" %v", sd)
		case "ClusterProviderConfig":
			ep, _, _ := unstructured.NestedString(u.Object, "spec", "endpoint")
			line += " " + ep
		case "Tenant":
			pc, _, _ := unstructured.NestedString(u.Object, "spec", "providerConfigRef", "name")
			tiers, _, _ := unstructured.NestedSlice(u.Object, "spec", "tiers")
			tr := tiers[0].(map[string]any)
			line += fmt.Sprintf(" %s %s %s %s %s", pc, tr["type"], tr["endpoint"], tr["bucket"], tr["prefix"])
		}
		got = append(got, line)
	}
	sort.Strings(got)
	want := []string{
		"ClusterProviderConfig /demo-tenant http://127.0.0.1:1",
		"Namespace /team-a",
		"Secret crossplane-system/demo-tenant map[accesskey:admin secretkey:admin-secret]",
		"Secret team-a/cold-tier map[accesskey:tier secretkey:tier-secret]",
		"Tenant team-a/tenant-a demo-tenant RustFS http://127.0.0.1:2 tiers team-a/tenant-a-COLD/tier-bucket/rustfs-a/",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the objects the demo applies for examples/tenant (-want +got):\n%s", diff)
	}
	if tenant == nil || tenant.GetName() != "tenant-a" {
		t.Errorf("want the Tenant tenant-a returned, got %v", tenant)
	}
}

// TestPointTenantTiers: two tiers of one Tenant never share a prefix, even
// with the same bucket and prefix.
func TestPointTenantTiers(t *testing.T) {
	u := obj(map[string]any{"kind": "Tenant", "metadata": map[string]any{"name": "t", "namespace": "ns"},
		"spec": map[string]any{"tiers": []any{
			map[string]any{"name": "A", "type": "S3", "bucket": "b", "prefix": "p/", "credsSecret": map[string]any{"name": "s"}},
			map[string]any{"name": "B", "type": "S3", "bucket": "b", "prefix": "p/"},
		}}})
	uses := pointTenantTiers(u, demoTarget)
	tiers, _, _ := unstructured.NestedSlice(u.Object, "spec", "tiers")
	var got []string
	for _, tr := range tiers {
		m := tr.(map[string]any)
		got = append(got, fmt.Sprintf("%s %s %s %s", m["type"], m["endpoint"], m["bucket"], m["prefix"]))
	}
	want := []string{"RustFS http://127.0.0.1:2 tiers ns/t-A/b/p/", "RustFS http://127.0.0.1:2 tiers ns/t-B/b/p/"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tiers (-want +got):\n%s", diff)
	}
	if len(uses) != 2 || uses[0].name != "s" || uses[0].accessKey != "tier" || uses[1].name != "" {
		t.Errorf("want the Secret s of tier A filled with the tier keys and none for B, got %+v", uses)
	}
}

func TestStatusRows(t *testing.T) {
	u := obj(map[string]any{"kind": "Tenant", "metadata": map[string]any{"name": "t", "namespace": "ns"},
		"status": map[string]any{
			"tiers":   []any{map[string]any{"name": "COLD", "ready": true, "synced": true}},
			"buckets": []any{map[string]any{"name": "b", "ready": false, "synced": true, "reason": "TierConflict", "message": "tier COLD is refused"}},
			"access":  []any{map[string]any{"name": "app", "ready": true, "synced": true, "secretName": "t-access-app"}},
		}})
	want := []row{
		{kind: "TenantTier", name: "ns/t/COLD", ready: "True", synced: "True", conflict: "-", why: "status.tiers row COLD"},
		{kind: "TenantBucket", name: "ns/t/b", ready: "False", synced: "True", conflict: "-", why: "TierConflict: tier COLD is refused"},
		{kind: "TenantAccess", name: "ns/t/app", ready: "True", synced: "True", conflict: "-", why: "status.access row app: key in Secret t-access-app"},
	}
	if diff := cmp.Diff(want, statusRows(u), cmp.AllowUnexported(row{})); diff != "" {
		t.Errorf("status rows (-want +got):\n%s", diff)
	}
}
