package e2e

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A crashCase is one write the provider dies in the middle of: RustFS
// applied it, and the provider stopped before the answer came back, so it
// recorded nothing.
type crashCase struct {
	route string
	// before readies what the write changes and returns what to wait for.
	before func(w *world) []managedObject
	// write makes the provider send the write.
	write func(w *world)
	// applied reports whether RustFS holds the write.
	applied func(w *world) bool
	// state names the piece of RustFS state the write changes, and want
	// every value it must take from the moment the fault is set.
	state func(w *world) string
	want  []string
	// sent is how many of route's requests may reach RustFS: the one the
	// provider died in, and at most one repeat of it for a write the
	// provider cannot prove from a read (a credential edit's secret key).
	sent int
	// read is the route every reconcile of the written resource reads.
	read string
	// recorded waits until the API server holds the record of the write,
	// where Ready alone does not show it.
	recorded func(w *world)
}

func crashCases() map[string]crashCase {
	return map[string]crashCase{
		"TierAdd": {route: rustfstest.RouteAddTier, sent: 1, read: rustfstest.RouteListTiers,
			before:  func(*world) []managedObject { return nil },
			write:   func(w *world) { w.create(w.tier("cold", "COLD")) },
			applied: func(w *world) bool { _, ok := w.local.Tier("COLD"); return ok },
			state:   func(w *world) string { return w.tierKeys("COLD") }, want: []string{"absent", "remote"}},
		"CredentialEdit": {route: rustfstest.RouteEditTier, sent: 2, read: rustfstest.RouteListTiers,
			before: func(w *world) []managedObject { tr := w.tier("cold", "COLD"); w.create(tr); return []managedObject{tr} },
			write: func(w *world) {
				if err := env.Client.Update(w.ctx, secret(w.ns, tierSecretName, rotatedAK, rotatedSK)); err != nil {
					w.t.Fatalf("cannot update Secret: %v", err)
				}
			},
			applied: func(w *world) bool { return w.tierKeys("COLD") == "rotated" },
			recorded: func(w *world) {
				tr := &v1alpha1.Tier{}
				tr.SetNamespace(w.ns)
				tr.SetName("cold")
				w.expectCredentialsStatus(tr, tierSecretName)
			},
			state: func(w *world) string { return w.tierKeys("COLD") }, want: []string{"remote", "rotated"}},
		"LifecyclePut": {route: rustfstest.RoutePutLifecycle, sent: 1, read: rustfstest.RouteGetLifecycle,
			before: func(w *world) []managedObject {
				b, lc := w.bucket("data"), w.lifecycle("data", "data", []v1alpha1.LifecycleRule{rule("expire", expireAfter(30))})
				w.create(b, lc)
				return []managedObject{b, lc}
			},
			write:   func(w *world) { w.setExpiration("data", 60) },
			applied: func(w *world) bool { return w.lifecycleVersion() == "v2" },
			state:   (*world).lifecycleVersion, want: []string{"v1", "v2"}},
		"BucketCreate": {route: rustfstest.RouteCreateBucket, sent: 1, read: rustfstest.RouteHeadBucket,
			before:  func(*world) []managedObject { return nil },
			write:   func(w *world) { w.create(w.bucket("data")) },
			applied: func(w *world) bool { return w.local.HasBucket("data") },
			state: func(w *world) string {
				if w.local.HasBucket("data") {
					return "present"
				}
				return "absent"
			}, want: []string{"absent", "present"}},
	}
}

// The provider stops right after RustFS applied a write and before the
// answer arrived (the emulator holds the answer back until the client
// gives up), so nothing about the write is recorded in the API server. A
// new provider converges without repeating the write (a credential edit,
// which no read can prove, at most once) and without undoing it.
func TestFaultProviderRestartMidWriteConverges(t *testing.T) {
	testenv.Skip(t)
	for _, mode := range modes {
		for name, tc := range crashCases() {
			t.Run(mode.String()+"/"+name, func(t *testing.T) { runCrash(t, mode, tc, v1alpha1.AdoptionAutomatic) })
		}
	}
}

// runCrash runs crash case tc against mode with the ClusterProviderConfig's
// adoption policy set to adoption, and returns its world.
func runCrash(t *testing.T, mode rustfstest.Mode, tc crashCase, adoption v1alpha1.AdoptionPolicy) *world {
	w := newStoppedWorld(t, shortPoll, rustfstest.WithMode(mode))
	w.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.Adoption = adoption })
	stop := w.startProvider()
	ready := tc.before(w)
	if len(ready) > 0 {
		w.waitReady(ready...)
	}
	w.local.ResetCounters()
	h := record(t, func() string { return tc.state(w) })
	w.local.InjectFault(tc.route, rustfstest.Fault{Lost: rustfstest.LossHang, Times: 1})
	tc.write(w)
	w.eventually(func(g gomega.Gomega) { g.Expect(tc.applied(w)).To(gomega.BeTrue(), "RustFS applied the write") })
	stop()

	t.Cleanup(w.startProvider())
	t.Cleanup(w.finish)
	objs := w.managed()
	w.waitReady(objs...)
	if tc.recorded != nil {
		tc.recorded(w)
	}
	t.Logf("requests to %s: %d; custody: %s", tc.route, w.local.Count(tc.route), acquisitions(objs))
	if n := w.local.Count(tc.route); n < 1 || n > tc.sent {
		t.Errorf("requests to %s: want 1 to %d, got %d", tc.route, tc.sent, n)
	}
	if diff := cmp.Diff(tc.want, h.Values()); diff != "" {
		t.Errorf("RustFS state over time: -want, +got:\n%s", diff)
	}
	w.expectNoWritesOnReconcile(tc.read)
	return w
}
