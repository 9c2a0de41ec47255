package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/gomega"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// Helpers of the custody record scenarios (issue 26): a tenant acts as an
// API server user bound only by a RoleBinding in its namespace.

// tenantClient returns a client that acts as user tenant-<ns>, bound only
// by a RoleBinding in ns to testenv.EditRole, a ClusterRole like
// crossplane-edit that covers the provider's whole API group (so the
// cluster-scoped custodyrecords too, which the RoleBinding cannot grant).
// The client can watch, so that a test can try that verb as well.
func tenantClient(t *testing.T, ns string) client.WithWatch {
	t.Helper()
	user := "tenant-" + ns
	env.Tenant(t, ns, user)
	cfg := rest.CopyConfig(env.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user}
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: env.Scheme})
	if err != nil {
		t.Fatalf("cannot make the tenant's client: %v", err)
	}
	return c
}

// asTenant applies a merge patch of body to o (or, with status, to its
// status) as tenant c, failing the test if the API server refuses it.
func (w *world) asTenant(c client.Client, o client.Object, status bool, body map[string]any) {
	w.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		w.t.Fatal(err)
	}
	cp, _ := o.DeepCopyObject().(client.Object)
	p := client.RawPatch(types.MergePatchType, b)
	if status {
		err = c.Status().Patch(w.ctx, cp, p)
	} else {
		err = c.Patch(w.ctx, cp, p)
	}
	if err != nil {
		w.t.Fatalf("tenant cannot patch %T %s/%s: %v", o, o.GetNamespace(), o.GetName(), err)
	}
}

// recordOf returns the custody record status.custody.record of o names,
// read as the administrator; nil if none.
func (w *world) recordOf(name string) *v1alpha1.CustodyRecord {
	w.t.Helper()
	r := &v1alpha1.CustodyRecord{}
	err := env.Client.Get(w.ctx, types.NamespacedName{Name: name}, r)
	if kerrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		w.t.Fatalf("cannot read custody record %s: %v", name, err)
	}
	return r
}

// pausedAnnotation is Crossplane's pause annotation.
const pausedAnnotation = "crossplane.io/paused"

// paused adds the pause annotation to o before it is created.
func paused(o client.Object) {
	a := o.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[pausedAnnotation] = "true"
	o.SetAnnotations(a)
}

// tenantCreate creates objs as tenant c, failing the test on error.
func (w *world) tenantCreate(c client.Client, objs ...client.Object) {
	w.t.Helper()
	for _, o := range objs {
		if err := c.Create(w.ctx, o); err != nil {
			w.t.Fatalf("tenant cannot create %T %s/%s: %v", o, o.GetNamespace(), o.GetName(), err)
		}
	}
}

// tenantUnpause removes the pause annotation of o as tenant c.
func (w *world) tenantUnpause(c client.Client, o client.Object) {
	w.t.Helper()
	w.asTenant(c, o, false, map[string]any{"metadata": map[string]any{"annotations": map[string]any{pausedAnnotation: nil}}})
}

// writesSince returns the writes to the local RustFS after mark that name
// one of names (a bucket, a tier) in their path or that go to a tier route.
func (w *world) writesSince(mark int, names ...string) []string {
	return w.requestsSince(mark, func(r rustfstest.RequestRecord) bool {
		if r.Method == "GET" || r.Method == "HEAD" {
			return false
		}
		if strings.HasPrefix(r.Route, "tier.") && r.Route != rustfstest.RouteTierStats {
			return true
		}
		return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(r.Path, n) })
	})
}

// expectHeldBy fails the test unless the record o's status names is held
// by a resource of namespace ns.
func (w *world) expectHeldBy(o interface {
	client.Object
	GetCustody() *v1alpha1.Custody
}, ns string) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		w.get(g, o)
		c := o.GetCustody()
		g.Expect(c).NotTo(gomega.BeNil(), "status.custody of %s", o.GetName())
		g.Expect(c.Record).NotTo(gomega.BeEmpty(), "status.custody.record of %s", o.GetName())
	})
	r := w.recordOf(o.GetCustody().Record)
	if r == nil || r.Spec.Holder == nil || r.Spec.Holder.Namespace != ns || r.Spec.Holder.UID != o.GetUID() {
		w.t.Errorf("custody record of %s/%s: want it held by that resource of namespace %s, got %+v", o.GetNamespace(), o.GetName(), ns, r)
	}
}
