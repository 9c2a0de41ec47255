package tier

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

func TestTransientListFailureKeepsStatusAndRetries(t *testing.T) {
	faults := map[string]rustfstest.Fault{
		"ServiceUnavailable": {Status: http.StatusServiceUnavailable, Code: "ServiceUnavailable", Times: 1},
		"SlowDown":           {Status: http.StatusTooManyRequests, Code: "SlowDown", Times: 1},
		// Until cleared: clients share a transport, and net/http retries a
		// GET once by itself when a reused connection is reset.
		"ConnectionReset": {Reset: true},
	}
	for name, f := range faults {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeGA)
			cr := h.store(tier(h.remote.TierURL()))
			h.expect(cr, "create", "")
			h.expect(cr, "none", "")
			before := cr.Status.DeepCopy()
			h.local.InjectFault(rustfstest.RouteListTiers, f)

			_, err := h.reconcile(cr)
			if err == nil || blocked(err) != nil || !rustfs.IsTransient(err) {
				t.Fatalf("reconcile during the fault: got %v, want a transient, non-blocking error", err)
			}
			h.local.ClearFaults()
			if diff := cmp.Diff(before, cr.Status.DeepCopy(), cmpopts.IgnoreFields(xpv2.Condition{}, "LastTransitionTime")); diff != "" {
				t.Errorf("status changed on a transient failure: -before +after:\n%s", diff)
			}
			h.expect(cr, "none", "")
			if h.local.Writes() != 1 {
				t.Errorf("writes: got %d, want only the original add", h.local.Writes())
			}
		})
	}
}

func TestTransientAddFailureIsRetriedNotBlocked(t *testing.T) {
	faults := map[string]rustfstest.Fault{
		"ServiceUnavailable": {Status: http.StatusServiceUnavailable, Code: "ServiceUnavailable", Times: 1},
		"MutationRecovery": {Status: http.StatusInternalServerError, Code: "TierAddFailed", Times: 1,
			Message: "tier add failed. Remote tier mutation recovery changed before publish"},
		"AddedConcurrently": {Status: http.StatusInternalServerError, Code: "TierNameAlreadyExist", Message: "tier name already exists", Times: 1},
	}
	for name, f := range faults {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeRC)
			cr := h.store(tier(h.remote.TierURL()))
			h.local.InjectFault(rustfstest.RouteAddTier, f)

			if step, err := h.reconcile(cr); step != "create" || err == nil || blocked(err) != nil {
				t.Fatalf("first reconcile: %s, %v; want a failed, non-blocking create", step, err)
			}
			if _, ok := cr.GetAnnotations()[memo.BlockKey]; ok {
				t.Error("a transient failure was recorded as a block")
			}
			if step, err := h.reconcile(cr); step != "create" || err != nil {
				t.Errorf("retry: %s, %v; want the add retried and succeeding", step, err)
			}
		})
	}
}

// GA answers for passing states of a tier mutation (docs/rustfs-wire.md §1.3,
// §13.5) are retried with backoff, never recorded as blocks, on add and on
// credentials edit.
func TestGATransientAnswersAreRetriedNotBlocked(t *testing.T) {
	bad := func(msg string) rustfstest.Fault {
		return rustfstest.Fault{Status: http.StatusBadRequest, Code: "InvalidArgument", Message: msg, Times: 1}
	}
	failed := func(code, msg string) rustfstest.Fault {
		return rustfstest.Fault{Status: http.StatusInternalServerError, Code: code, Message: msg, Times: 1}
	}
	cases := map[string]struct {
		route string
		fault rustfstest.Fault
	}{
		"AddPrepareFailed":  {rustfstest.RouteAddTier, bad("Remote tier mutation prepare failed: peer rpc timed out")},
		"AddCommitFailed":   {rustfstest.RouteAddTier, bad("Remote tier mutation commit failed: peer unreachable")},
		"AddReferenceProof": {rustfstest.RouteAddTier, bad("Remote tier reference proof failed: listing interrupted")},
		"AddBeingReplaced":  {rustfstest.RouteAddTier, bad("Remote tier configuration is being replaced")},
		"AddSaveFailed":     {rustfstest.RouteAddTier, failed("TierAddFailed", "tier save failed")},
		"EditTimedOut":      {rustfstest.RouteEditTier, failed("TierEditFailed", "tier edit failed. Timed out validating the remote tier mutation")},
		"EditCommitFailed":  {rustfstest.RouteEditTier, failed("TierEditFailed", "tier edit failed. Remote tier mutation commit failed: x")},
		"EditSaveFailed":    {rustfstest.RouteEditTier, failed("TierEditFailed", "tier save failed")},
		"EditBeingReplaced": {rustfstest.RouteEditTier, failed("TierEditFailed", "tier edit failed. Remote tier configuration is already being replaced")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeGA)
			step := "create"
			if tc.route == rustfstest.RouteEditTier {
				h.local.SeedTier(seeded(h.remote.TierURL(), "AKSOMEONEELSE"))
				step = "update"
			}
			cr := h.store(tier(h.remote.TierURL()))
			h.local.InjectFault(tc.route, tc.fault)

			if got, err := h.reconcile(cr); got != step || err == nil || blocked(err) != nil || !rustfs.IsTransient(err) {
				t.Fatalf("reconcile during the fault: %s, %v; want a failed, transient, non-blocking %s", got, err, step)
			}
			if _, ok := cr.GetAnnotations()[memo.BlockKey]; ok {
				t.Error("a transient failure was recorded as a block")
			}
			if got, err := h.reconcile(h.fetch(cr)); got != step || err != nil {
				t.Errorf("retry: %s, %v; want the %s retried and succeeding", got, err, step)
			}
		})
	}
}

func TestTierRemovedDuringEditIsReobserved(t *testing.T) {
	h := newHarness(t, rustfstest.ModeRC)
	h.local.SeedTier(seeded(h.remote.TierURL(), "AKSOMEONEELSE"))
	cr := h.store(tier(h.remote.TierURL()))
	h.local.InjectFault(rustfstest.RouteEditTier, rustfstest.Fault{Status: http.StatusInternalServerError, Code: "TierNotFound", Times: 1})

	if step, err := h.reconcile(cr); step != "update" || err == nil || blocked(err) != nil {
		t.Fatalf("edit of a vanished tier: %s, %v; want a non-blocking error", step, err)
	}
	if step, err := h.reconcile(h.fetch(cr)); step != "update" || err != nil {
		t.Errorf("retry: %s, %v; want the edit retried", step, err)
	}
}
