package manager_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/customresourcesgate"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// env is the API server the package's integration tests share.
var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}

// The CRD gate opens on the trimmed CRDs the cache keeps, as the provider
// binary sets it up, and the cache holds no CRD schema.
func TestCRDGateOpensOnTrimmedCRDs(t *testing.T) {
	testenv.Skip(t)
	opened := make(chan struct{})
	gate := func(mgr ctrl.Manager, o options.Options) error { return customresourcesgate.Setup(mgr, o.Options) }
	gated := func(_ ctrl.Manager, o options.Options) error {
		o.Gated("test", func() error { close(opened); return nil },
			v1alpha1.TierGroupVersionKind, v1alpha1.BucketLifecycleGroupVersionKind)
		return nil
	}
	mgr := env.StartManager(t, options.ControllerSettings{}, gate, gated)
	select {
	case <-opened:
	case <-time.After(30 * time.Second):
		t.Fatal("the CRD gate did not open for Tier and BucketLifecycle within 30s")
	}

	key := client.ObjectKey{Name: "bucketlifecycles.rustfs.m.crossplane.io"}
	cached, live := &apiextensionsv1.CustomResourceDefinition{}, &apiextensionsv1.CustomResourceDefinition{}
	if err := mgr.GetClient().Get(context.Background(), key, cached); err != nil {
		t.Fatalf("cached CRD: %v", err)
	}
	if err := env.Client.Get(context.Background(), key, live); err != nil {
		t.Fatalf("live CRD: %v", err)
	}
	if live.Spec.Versions[0].Schema == nil {
		t.Fatal("the API server's CRD has no schema: nothing to trim")
	}
	for _, v := range cached.Spec.Versions {
		if v.Schema != nil || v.AdditionalPrinterColumns != nil {
			t.Errorf("cached CRD %s version %s: want no schema and no printer columns", key.Name, v.Name)
		}
	}
	t.Logf("CRD %s as JSON: %d bytes from the API server, %d bytes in the cache", key.Name, size(t, live), size(t, cached))
}

func size(t *testing.T, o any) int {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}
