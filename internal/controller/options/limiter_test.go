package options

import (
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
)

func TestControllerOf(t *testing.T) {
	cases := map[string]struct {
		reason string
		item   string
		want   string
	}{
		"Tier":    {reason: "The controller name ends with the API group.", item: "managed/tier.rustfs.m.crossplane.iobench/bench-0001", want: "managed/tier.rustfs.m.crossplane.io"},
		"Cluster": {reason: "A cluster-scoped request has no namespace.", item: "providerconfig/clusterproviderconfig.rustfs.m.crossplane.iodefault", want: "providerconfig/clusterproviderconfig.rustfs.m.crossplane.io"},
		"Other":   {reason: "An item of another group is counted as other.", item: "managed/thing.example.orga/b", want: "other"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := controllerOf(tc.item); got != tc.want {
				t.Errorf("%s\ncontrollerOf(%q): want %q, got %q", tc.reason, tc.item, tc.want, got)
			}
		})
	}
}

func TestCountingLimiterCountsPasses(t *testing.T) {
	const name = "managed/bucket.rustfs.m.crossplane.io"
	l := countingLimiter{ratelimiter.NewGlobal(1)}
	before := count(t, name)
	// When alone is a deferral or a token taken; only Forget is a pass.
	_ = l.When(name + "a/b")
	l.Forget(name + "a/b")
	l.Forget(name + "a/c")
	if got := count(t, name) - before; got != 2 {
		t.Errorf("rustfs_managed_reconciles_total{controller=%q}: want 2 more, got %v", name, got)
	}
}

// count reads the counter of controller name.
func count(t *testing.T, name string) float64 {
	t.Helper()
	m := &dto.Metric{}
	if err := managedReconciles.WithLabelValues(name).Write(m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
