package e2e

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// transientAnswers refuse a request before RustFS handles it, the way a
// busy or rate-limited RustFS, or a broken connection, does.
// (503 is classified as 429 is; TestErrorClasses covers both.)
var transientAnswers = map[string]rustfstest.Fault{
	"429WithRetryAfter": {Status: http.StatusTooManyRequests, Code: "SlowDown", Message: "slow down", RetryAfter: "1"},
	"Reset":             {Reset: true},
}

// A write refused twice with a transient answer is retried with backoff
// and applied once: RustFS receives exactly the two refused requests and
// the one it applies, and its state changes exactly once.
func TestFaultTransientAnswerBeforeAWriteIsRetried(t *testing.T) {
	testenv.Skip(t)
	for name, tc := range crashCases() {
		for fname, f := range transientAnswers {
			t.Run(name+"/"+fname, func(t *testing.T) {
				w := newWorld(t, shortPoll)
				if ready := tc.before(w); len(ready) > 0 {
					w.waitReady(ready...)
				}
				w.local.ResetCounters()
				h := record(t, func() string { return tc.state(w) })
				f.Times = 2
				w.local.InjectFault(tc.route, f)
				tc.write(w)
				// A change to a Ready resource keeps it Ready: wait for the
				// write itself, not only for Ready.
				w.eventually(func(g gomega.Gomega) { g.Expect(tc.applied(w)).To(gomega.BeTrue(), "write applied") })
				w.waitReady(w.managed()...)
				if tc.recorded != nil {
					tc.recorded(w)
				}
				w.expectNoWritesOnReconcile(tc.read)
				if n := w.local.Count(tc.route); n != 3 {
					t.Errorf("requests to %s: want the 2 refused and the 1 applied, got %d", tc.route, n)
				}
				if diff := cmp.Diff(tc.want, h.Values()); diff != "" {
					t.Errorf("RustFS state over time: -want, +got:\n%s", diff)
				}
			})
		}
	}
}

// An answer to a read that is cut off, garbled or refused is an error,
// never "the object does not exist" or "it has no configuration": the
// provider writes nothing because of it, and the resources stay Ready. The
// resources are made to look created long ago, so the managed reconciler's
// grace period after a create does not hide a mistaken "absent".
func TestFaultBrokenReadAnswerCausesNoWrite(t *testing.T) {
	testenv.Skip(t)
	faults := map[string]rustfstest.Fault{
		"Garbage":   {Lost: rustfstest.LossGarbage},
		"Truncated": {Lost: rustfstest.LossTruncated},
		"503":       {Status: http.StatusServiceUnavailable, Code: "ServiceUnavailable"},
	}
	for _, mode := range modes {
		for name, f := range faults {
			if mode == rustfstest.ModeRC && name != "Garbage" {
				continue // the modes read alike; Garbage covers rc
			}
			t.Run(mode.String()+"/"+name, func(t *testing.T) {
				w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
				tr, b, lc := w.tenant()
				w.create(tr, b, lc)
				w.waitReady(tr, b, lc)
				for _, o := range []managedObject{tr, b, lc} {
					w.createdLongAgo(o)
				}
				w.local.ResetCounters()
				for _, route := range []string{rustfstest.RouteListTiers, rustfstest.RouteGetLifecycle} {
					w.local.InjectFault(route, f)
				}
				w.eventually(func(g gomega.Gomega) {
					for _, route := range []string{rustfstest.RouteListTiers, rustfstest.RouteGetLifecycle} {
						g.Expect(w.local.Count(route)).To(gomega.BeNumerically(">=", 3), "broken answers to %s", route)
					}
				})
				w.local.ClearFaults()
				w.expectNoWritesOnReconcile(rustfstest.RouteListTiers)
				w.expectNoWritesOnReconcile(rustfstest.RouteGetLifecycle)
				w.waitReady(tr, b, lc)
				if n := w.local.Writes(); n != 0 {
					t.Errorf("writes to RustFS after broken read answers: want 0, got %d (%v)", n, w.local.Counts())
				}
			})
		}
	}
}
