package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func obj(yaml map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: yaml}
}

var demoTarget = target{
	endpoint: "http://127.0.0.1:1", accessKey: "admin", secretKey: "admin-secret",
	tierEndpoint: "http://127.0.0.1:2", tierBucket: "tiers", tierAccessKey: "tier", tierSecretKey: "tier-secret",
}

var exampleTenant = obj(map[string]any{"apiVersion": "storage.rustfs.crossplane.io/v1alpha1", "kind": "Tenant", "metadata": map[string]any{"name": "t"}})

// exampleCPC is the ClusterProviderConfig example: a Secret in another
// namespace, which the examples do not define.
func exampleCPC() *unstructured.Unstructured {
	return obj(map[string]any{"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "ClusterProviderConfig",
		"metadata": map[string]any{"name": "default"},
		"spec": map[string]any{"endpoint": "http://rustfs:9000", "credentials": map[string]any{
			"source": "Secret", "secretRef": map[string]any{"namespace": "crossplane-system", "name": "rustfs-admin"}}}})
}

// exampleS3Tier is an S3 tier with a remote storage class and its own
// access key name.
func exampleS3Tier() *unstructured.Unstructured {
	return obj(map[string]any{"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "Tier",
		"metadata": map[string]any{"name": "cold", "namespace": "team-a"},
		"spec": map[string]any{"forProvider": map[string]any{"name": "COLD", "type": "S3", "endpoint": "https://s3.example.com",
			"bucket": "rustfs-cold", "storageClass": "GLACIER", "credentialsSecretRef": map[string]any{"name": "cold-tier", "accessKeyKey": "ak"}}}})
}

func TestMakePlan(t *testing.T) {
	cases := map[string]struct {
		reason string
		docs   []*unstructured.Unstructured
		want   []map[string]any
		notes  int
	}{
		"ProviderConfigAndMissingSecret": {
			reason: "the ProviderConfig points at the target and its Secret is added with the target's credentials",
			docs:   []*unstructured.Unstructured{exampleCPC()},
			want: []map[string]any{
				{"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": map[string]any{"name": "rustfs-admin", "namespace": "crossplane-system"},
					"stringData": map[string]any{"accesskey": "admin", "secretkey": "admin-secret"}},
				{"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "ClusterProviderConfig", "metadata": map[string]any{"name": "default"},
					"spec": map[string]any{"endpoint": "http://127.0.0.1:1", "credentials": map[string]any{
						"source": "Secret", "secretRef": map[string]any{"namespace": "crossplane-system", "name": "rustfs-admin"}}}},
			},
		},
		"S3TierBecomesRustFS": {
			reason: "an S3 tier is applied as RustFS on the remote, under a prefix named after its bucket, without storageClass, with its Secret's own key names",
			docs:   []*unstructured.Unstructured{exampleS3Tier(), exampleTenant},
			notes:  2,
			want: []map[string]any{
				{"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": map[string]any{"name": "cold-tier", "namespace": "team-a"},
					"stringData": map[string]any{"ak": "tier", "secretkey": "tier-secret"}},
				{"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "Tier", "metadata": map[string]any{"name": "cold", "namespace": "team-a"},
					"spec": map[string]any{"forProvider": map[string]any{"name": "COLD", "type": "RustFS", "endpoint": "http://127.0.0.1:2",
						"bucket": "tiers", "prefix": "team-a/cold/rustfs-cold/", "credentialsSecretRef": map[string]any{"name": "cold-tier", "accessKeyKey": "ak"}}}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := makePlan(tc.docs, demoTarget)
			got := make([]map[string]any, 0, len(p.objects))
			for _, o := range p.objects {
				got = append(got, o.Object)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nobjects: -want, +got:\n%s", tc.reason, diff)
			}
			if len(p.notes) != tc.notes {
				t.Errorf("%s\nnotes: want %d, got %q", tc.reason, tc.notes, p.notes)
			}
		})
	}
}
