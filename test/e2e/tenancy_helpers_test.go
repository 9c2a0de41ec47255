package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// Helpers of the scenarios for the tenancy settings (tenancy_policy_test.go,
// tenancy_owner_test.go).

// tenantLabel is the Namespace label the scenarios' namespaceSelector
// selects.
const tenantLabel = "rustfs.example.com/tenant"

// within is how soon a watch must make the controllers react; the
// scenarios that use it poll hourly, so only a watch explains a reaction.
const within = 5 * time.Second

// configure changes the spec of the world's ClusterProviderConfig.
func (w *world) configure(change func(s *v1alpha1.ClusterProviderConfigSpec)) {
	w.t.Helper()
	// The provider writes the ClusterProviderConfig too (its finalizer,
	// its users); a conflict is retried on the newer object.
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pc := &v1alpha1.ClusterProviderConfig{}
		if err := env.Client.Get(w.ctx, types.NamespacedName{Name: w.pc}, pc); err != nil {
			return err
		}
		change(&pc.Spec)
		return env.Client.Update(w.ctx, pc)
	})
	if err != nil {
		w.t.Fatalf("cannot update ClusterProviderConfig %s: %v", w.pc, err)
	}
}

// label sets (or, with value "", removes) label key of namespace ns.
func (w *world) label(ns, key, value string) {
	w.t.Helper()
	v := any(value)
	if value == "" {
		v = nil
	}
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"labels": map[string]any{key: v}}})
	n := &corev1.Namespace{}
	n.SetName(ns)
	if err := env.Client.Patch(w.ctx, n, client.RawPatch(types.MergePatchType, patch)); err != nil {
		w.t.Fatalf("cannot label namespace %s: %v", ns, err)
	}
}

// readyWithin waits at most d until every object is Ready and Synced.
func (w *world) readyWithin(d time.Duration, objs ...managedObject) {
	w.t.Helper()
	w.within(d, func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			expectCondition(g, o, xpv2.TypeSynced, corev1.ConditionTrue, "")
			expectCondition(g, o, xpv2.TypeReady, corev1.ConditionTrue, "")
		}
	})
}

// refusedWithin waits at most d until every object is Ready=False with
// reason, and Synced=False.
func (w *world) refusedWithin(d time.Duration, reason xpv2.ConditionReason, objs ...managedObject) {
	w.t.Helper()
	w.within(d, func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			expectCondition(g, o, xpv2.TypeReady, corev1.ConditionFalse, reason)
			expectCondition(g, o, xpv2.TypeSynced, corev1.ConditionFalse, "")
		}
	})
}

// expectNoRequestsSince fails the test if the local RustFS received a
// request after mark that names one of names (a bucket, a tier).
func (w *world) expectNoRequestsSince(mark int, why string, names ...string) {
	w.t.Helper()
	got := w.requestsSince(mark, func(r rustfstest.RequestRecord) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(r.Path, n) })
	})
	if len(got) > 0 {
		w.t.Errorf("%s: want no request to RustFS, got %v", why, got)
	}
}

// expectNoWritesSince fails the test if the local RustFS received a write
// after mark.
func (w *world) expectNoWritesSince(mark int, why string) {
	w.t.Helper()
	got := w.requestsSince(mark, func(r rustfstest.RequestRecord) bool {
		return r.Method != "GET" && r.Method != "HEAD"
	})
	if len(got) > 0 {
		w.t.Errorf("%s: want no write to RustFS, got %v", why, got)
	}
}

// expectSecretReads fails the test unless Secret ns/name was read want
// times more than before.
func (w *world) expectSecretReads(ns, name string, before, want int, why string) {
	w.t.Helper()
	if got := w.api.SecretReads(ns, name) - before; got != want {
		w.t.Errorf("%s: reads of Secret %s/%s: want %d, got %d", why, ns, name, want, got)
	}
}

// tierSlice is the tier name prefix of namespace ns with nameScope
// NamespacePrefix.
func tierSlice(ns string) string { return strings.ToUpper(ns) + "-" }

// createAll creates the objects.
func (w *world) createAll(objs ...managedObject) {
	w.t.Helper()
	for _, o := range objs {
		w.create(o)
	}
}
