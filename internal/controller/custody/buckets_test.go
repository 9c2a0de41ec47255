package custody

import (
	"context"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Buckets returns the Buckets of every namespace that name the bucket, and
// no Bucket of another bucket.
func TestBuckets(t *testing.T) {
	bucket := func(ns, name, external string) *v1alpha1.Bucket {
		b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		meta.SetExternalName(b, external)
		return b
	}
	kube := fake.NewClientBuilder().WithScheme(scheme(t)).WithIndex(&v1alpha1.Bucket{}, IndexExternalName, IndexByExternalName).
		WithObjects(bucket("a", "data", "shared"), bucket("b", "copy", "shared"), bucket("a", "logs", "logs")).Build()
	got, err := Buckets(context.Background(), kube, "shared")
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(got))
	for i, b := range got {
		ids[i] = b.GetNamespace() + "/" + b.GetName()
	}
	sort.Strings(ids)
	if diff := cmp.Diff([]string{"a/data", "b/copy"}, ids); diff != "" {
		t.Errorf("Buckets(..., \"shared\"): -want +got:\n%s", diff)
	}
}
