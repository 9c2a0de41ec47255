package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestObservedBuckets: the emulator starts with the buckets that
// observe-only Bucket examples import, by external name, and no other.
func TestObservedBuckets(t *testing.T) {
	bucket := func(name, external string, policies ...any) *unstructured.Unstructured {
		u := obj(map[string]any{"apiVersion": "rustfs.m.crossplane.io/v1alpha1", "kind": "Bucket",
			"metadata": map[string]any{"name": name, "namespace": "default"}, "spec": map[string]any{}})
		if external != "" {
			u.SetAnnotations(map[string]string{"crossplane.io/external-name": external})
		}
		if policies != nil {
			_ = unstructured.SetNestedSlice(u.Object, policies, "spec", "managementPolicies")
		}
		return u
	}
	docs := []*unstructured.Unstructured{
		bucket("managed", ""),
		bucket("legacy-archive", "", "Observe"),
		bucket("imported", "team-imported", "Observe"),
		bucket("observe-and-update", "", "Observe", "Update"),
		exampleTenant,
	}
	if diff := cmp.Diff([]string{"legacy-archive", "team-imported"}, observedBuckets(docs)); diff != "" {
		t.Errorf("observed buckets (-want +got):\n%s", diff)
	}
}
