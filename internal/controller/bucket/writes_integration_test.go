package bucket

import (
	"net/http"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A new Bucket costs the API server four writes of the Bucket: the
// create-pending annotation with the finalizer and the external name, the
// create-succeeded annotation and the status after the create and after
// the observe that follows it (status.custody included). None changes its
// generation. A poll that finds nothing changed writes nothing.
func TestWritesPerNewBucketAndPoll(t *testing.T) {
	testenv.Skip(t)
	requests := &testenv.RequestLog{}
	s := startObserved(t, time.Second, requests)
	// As kubectl sends it: no spec.forProvider, which the CRD defaults.
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": v1alpha1.SchemeGroupVersion.String(), "kind": v1alpha1.BucketKind,
		"metadata": map[string]any{"namespace": s.ns, "name": "counted"},
		"spec":     map[string]any{"providerConfigRef": map[string]any{"kind": v1alpha1.ClusterProviderConfigKind, "name": s.ns}},
	}}
	if err := env.Client.Create(ctx(t), u); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "counted", isReady)
	got := &v1alpha1.Bucket{}
	gomega.NewWithT(t).Eventually(func() bool {
		if err := env.Client.Get(ctx(t), client.ObjectKey{Namespace: s.ns, Name: "counted"}, got); err != nil {
			return false
		}
		c := got.GetCustody()
		return meta.FinalizerExists(got, managed.FinalizerName) && c != nil && c.Acquired == v1alpha1.AcquiredCreated
	}, 10*time.Second, 50*time.Millisecond).Should(gomega.BeTrue(), "the finalizer and status.custody of a new Bucket")

	path := "/apis/" + v1alpha1.Group + "/" + v1alpha1.Version + "/namespaces/" + s.ns + "/buckets/counted"
	writes := func() map[string]int {
		return map[string]int{
			"PUT":          requests.Count(http.MethodPut, path),
			"PATCH":        requests.Count(http.MethodPatch, path),
			"PUT status":   requests.Count(http.MethodPut, path+"/status"),
			"PATCH status": requests.Count(http.MethodPatch, path+"/status"),
		}
	}
	if got.Generation != 1 {
		t.Errorf("generation of a new Bucket the provider created: want 1 (no change of spec), got %d", got.Generation)
	}
	created := writes()
	if created["PUT"] > 2 || created["PATCH"]+created["PATCH status"] > 0 || created["PUT status"] > 2 {
		t.Errorf("writes of a new Bucket: want at most 2 PUT and 2 PUT status, no PATCH; got %v", created)
	}
	time.Sleep(3 * time.Second) // three polls
	if polled := writes(); polled["PUT status"] != created["PUT status"] || polled["PUT"] != created["PUT"] {
		t.Errorf("writes of polls that change nothing: want none after %v, got %v", created, polled)
	}
}
