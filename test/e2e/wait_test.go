package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A managedObject is a Tier, Bucket or BucketLifecycle.
type managedObject interface {
	client.Object
	GetCondition(xpv2.ConditionType) xpv2.Condition
}

// eventually retries f until it passes or the scenario timeout expires.
func (w *world) eventually(f func(g gomega.Gomega)) {
	w.t.Helper()
	w.g.Eventually(f).WithTimeout(eventually).WithPolling(100 * time.Millisecond).Should(gomega.Succeed())
}

// within retries f until it passes or d expires.
func (w *world) within(d time.Duration, f func(g gomega.Gomega)) {
	w.t.Helper()
	w.g.Eventually(f).WithTimeout(d).WithPolling(50 * time.Millisecond).Should(gomega.Succeed())
}

// get refreshes o from the API server.
func (w *world) get(g gomega.Gomega, o client.Object) {
	g.Expect(env.Client.Get(w.ctx, client.ObjectKeyFromObject(o), o)).To(gomega.Succeed())
}

// expectCondition checks that o has condition ct with status and reason.
func expectCondition(g gomega.Gomega, o managedObject, ct xpv2.ConditionType, status corev1.ConditionStatus, reason xpv2.ConditionReason) {
	c := o.GetCondition(ct)
	g.Expect(string(c.Status)).To(gomega.Equal(string(status)), "%s of %T %s: %s", ct, o, o.GetName(), describe(c))
	if reason != "" {
		g.Expect(string(c.Reason)).To(gomega.Equal(string(reason)), "%s of %T %s: %s", ct, o, o.GetName(), describe(c))
	}
}

func describe(c xpv2.Condition) string {
	return redact(fmt.Sprintf("status=%s reason=%s message=%q", c.Status, c.Reason, c.Message))
}

// expectUsers waits until the world's ClusterProviderConfig counts n
// users: the usage controller counts the ProviderConfigUsages the managed
// resources' connects record.
func (w *world) expectUsers(n int64) {
	w.t.Helper()
	pc := &v1alpha1.ClusterProviderConfig{}
	pc.SetName(w.pc)
	w.eventually(func(g gomega.Gomega) {
		w.get(g, pc)
		g.Expect(pc.GetUsers()).To(gomega.Equal(n), "status.users of ClusterProviderConfig %s", w.pc)
	})
}

// waitReady waits until every object is Ready and Synced.
func (w *world) waitReady(objs ...managedObject) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			expectCondition(g, o, xpv2.TypeSynced, corev1.ConditionTrue, "")
			expectCondition(g, o, xpv2.TypeReady, corev1.ConditionTrue, "")
		}
	})
}

// expectNoWritesOnReconcile checks that three more reconciles of every
// object send reads to the local RustFS (the route read, which each of
// their reconciles starts with) but no write at all. With a short poll
// interval the polls are those reconciles; with a long one a poke of each
// object causes them. Tier reconciles share one tier list per poll
// interval, so only polls show up as tier list reads.
func (w *world) expectNoWritesOnReconcile(read string, objs ...client.Object) {
	w.t.Helper()
	writes := w.local.Writes()
	for i := range 3 {
		before := w.local.Count(read)
		if w.poll >= time.Minute {
			for _, o := range objs {
				w.poke(o, i)
			}
		}
		w.eventually(func(g gomega.Gomega) {
			g.Expect(w.local.Count(read)).To(gomega.BeNumerically(">", before), "reconciles (route %s)", read)
		})
		w.g.Consistently(w.local.Writes).WithTimeout(500*time.Millisecond).WithPolling(50*time.Millisecond).
			Should(gomega.Equal(writes), "writes to RustFS after reconcile %d", i+1)
	}
}

// poke changes a user annotation of o, which makes its controller
// reconcile it without changing its desired state.
func (w *world) poke(o client.Object, n int) {
	w.t.Helper()
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"e2e.rustfs.m.crossplane.io/poke":"%d-%d"}}}`, n, time.Now().UnixNano())
	if err := env.Client.Patch(w.ctx, o, client.RawPatch(types.MergePatchType, []byte(patch))); err != nil {
		w.t.Fatalf("cannot poke %T %s: %v", o, o.GetName(), err)
	}
}

// expectCounts checks the local RustFS's request counters.
func (w *world) expectCounts(want map[string]int) {
	w.t.Helper()
	for route, n := range want {
		if got := w.local.Count(route); got != n {
			w.t.Errorf("requests to %s: want %d, got %d", route, n, got)
		}
	}
}

// routeIndex returns the position in the request log of the first request
// to route that answered status, or -1.
func (w *world) routeIndex(route string, status int) int {
	for i, r := range w.local.Requests() {
		if r.Route == route && r.Status == status {
			return i
		}
	}
	return -1
}

// editsOf returns how many credential edits tier name received.
func (w *world) editsOf(name string) int {
	n := 0
	for _, r := range w.local.Requests() {
		if r.Route == rustfstest.RouteEditTier && strings.HasSuffix(r.Path, "/tier/"+name) {
			n++
		}
	}
	return n
}

// client returns a RustFS client for the local emulator, as `rc admin`
// would use it.
func (w *world) client() *rustfs.Client {
	return testenv.RustFSClient(w.t, rustfs.Config{Endpoint: w.local.URL(), AccessKey: localAK, SecretKey: localSK})
}

// secretVersion returns the resourceVersion of a Secret of the world.
func (w *world) secretVersion(name string) string {
	w.t.Helper()
	s := &corev1.Secret{}
	if err := env.Client.Get(w.ctx, types.NamespacedName{Namespace: w.ns, Name: name}, s); err != nil {
		w.t.Fatalf("cannot get Secret %s: %v", name, err)
	}
	return s.ResourceVersion
}

// finish runs when a scenario ends, while its controllers still run: it
// checks that no secret value reached status, events or the controllers'
// logs, then deletes every managed resource of the world's namespaces and
// waits until they are gone, so that later scenarios' controllers never
// see them.
func (w *world) finish() {
	w.checkNoSecretLeaks()
	for _, ns := range w.namespaces() {
		for _, o := range []client.Object{&v1alpha1.BucketLifecycle{}, &v1alpha1.Bucket{}, &v1alpha1.Tier{}} {
			if err := env.Client.DeleteAllOf(w.ctx, o, client.InNamespace(ns)); err != nil {
				w.t.Errorf("cannot delete %T in %s: %v", o, ns, err)
			}
		}
	}
	w.eventually(func(g gomega.Gomega) {
		for _, ns := range w.namespaces() {
			for _, list := range []client.ObjectList{&v1alpha1.BucketLifecycleList{}, &v1alpha1.BucketList{}, &v1alpha1.TierList{}} {
				g.Expect(env.Client.List(w.ctx, list, client.InNamespace(ns))).To(gomega.Succeed())
				g.Expect(meta.LenList(list)).To(gomega.BeZero(), "%T left in %s after the scenario", list, ns)
			}
		}
	})
	if w.t.Failed() {
		w.t.Logf("controller log (secret values redacted):\n%s", redact(w.log.String()))
	}
}

// checkNoSecretLeaks fails the test if a secret key of the emulators
// appears in any managed resource, event or controller log line.
func (w *world) checkNoSecretLeaks() {
	for _, ns := range w.namespaces() {
		lists := []client.ObjectList{&v1alpha1.TierList{}, &v1alpha1.BucketList{}, &v1alpha1.BucketLifecycleList{}, &corev1.EventList{}}
		for _, l := range lists {
			if err := env.Client.List(w.ctx, l, client.InNamespace(ns)); err != nil {
				w.t.Errorf("cannot list %T in %s: %v", l, ns, err)
				continue
			}
			b, _ := json.Marshal(l)
			if strings.Contains(string(b), sentinel) {
				w.t.Errorf("a secret value appears in %T of namespace %s", l, ns)
			}
		}
	}
	if strings.Contains(w.log.String(), sentinel) {
		w.t.Error("a secret value appears in the controllers' log")
	}
}

// sorted returns a sorted copy of s.
func sorted(s []string) []string {
	out := append([]string(nil), s...)
	slices.Sort(out)
	return out
}
