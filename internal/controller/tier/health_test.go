package tier

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

const verifyInterval = 10 * time.Minute

// verifyDue is the longest a Tier waits after its last verify: the
// interval plus the largest spread.
const verifyDue = verifyInterval + verifyInterval/spreadShare

// A healthStep is one poll of TestRemoteHealthFollowsVerify.
type healthStep struct {
	name     string
	advance  time.Duration // clock advance before the poll
	remote   []string      // the actions the remote grants the tier's keys, nil to leave them
	verifies int           // verify requests in all after the poll
	healthy  string
	events   []string
}

func healthSteps() []healthStep {
	all := []string{"s3:*"}
	return []healthStep{
		{name: "FirstVerifyWhenDue", advance: verifyInterval, verifies: 1, healthy: "True/RemoteReachable"},
		{name: "PollWithinInterval", advance: time.Minute, verifies: 1, healthy: "True/RemoteReachable"},
		{name: "KeysRevokedNotYetDue", advance: time.Minute, remote: []string{}, verifies: 1, healthy: "True/RemoteReachable"},
		{name: "KeysRevokedDue", advance: verifyDue, verifies: 2, healthy: "False/RemoteUnhealthy", events: []string{"Warning/RemoteUnhealthy"}},
		{name: "UnhealthyPoll", advance: time.Minute, verifies: 2, healthy: "False/RemoteUnhealthy"},
		{name: "KeysFixedNotYetDue", advance: time.Minute, remote: all, verifies: 2, healthy: "False/RemoteUnhealthy"},
		{name: "KeysFixedDue", advance: verifyDue, verifies: 3, healthy: "True/RemoteReachable", events: []string{"Normal/RemoteHealthy"}},
		{name: "HealthyPoll", advance: time.Minute, verifies: 3, healthy: "True/RemoteReachable"},
	}
}

// TestRemoteHealthFollowsVerify: revoking the tier's keys on the remote
// turns RemoteHealthy False within one verify interval, fixing them turns
// it True again; verify runs at most once per interval, never per poll;
// Ready stays True; each change raises one event.
func TestRemoteHealthFollowsVerify(t *testing.T) {
	for _, mode := range modes {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			h := newHarness(t, mode, withVerify(verifyInterval))
			h.rotate(rotatedAK, rotatedSK) // a user of the remote whose keys can be revoked
			cr := h.store(tier(h.remote.TierURL()))
			h.expect(cr, "create", "")
			if diff := cmp.Diff([]string{"Normal/Registered"}, h.events.Take()); diff != "" {
				t.Errorf("events of the add: -want +got:\n%s", diff)
			}
			for _, s := range healthSteps() {
				h.now = h.now.Add(s.advance)
				if s.remote != nil {
					h.remote.SetUser(rotatedAK, rotatedSK, s.remote...)
				}
				h.expect(cr, "none", "")
				if n := h.local.Count(rustfstest.RouteVerifyTier); n != s.verifies {
					t.Errorf("%s: verify requests: want %d in all, got %d", s.name, s.verifies, n)
				}
				if got := get(cr, v1alpha1.TypeRemoteHealthy); got != s.healthy {
					t.Errorf("%s: RemoteHealthy: want %s, got %s", s.name, s.healthy, got)
				}
				if got := get(cr, xpv2.TypeReady); got != "True/Available" {
					t.Errorf("%s: Ready: want True/Available whatever the remote's health, got %s", s.name, got)
				}
				if diff := cmp.Diff(s.events, h.events.Take()); diff != "" {
					t.Errorf("%s: events: -want +got:\n%s", s.name, diff)
				}
			}
		})
	}
}

// TestRotationVerifiesAtOnce: a credentials edit is verified in the same
// reconcile, before a verify would be due.
func TestRotationVerifiesAtOnce(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA, withVerify(verifyInterval))
	cr := h.store(tier(h.remote.TierURL()))
	h.expect(cr, "create", "")
	h.now = h.now.Add(verifyInterval)
	h.expect(cr, "none", "")
	h.events.Take()
	h.rotate(rotatedAK, rotatedSK)
	h.now = h.now.Add(time.Minute)
	h.expect(cr, "update", "")
	if n := h.local.Count(rustfstest.RouteVerifyTier); n != 2 {
		t.Errorf("verify requests: want 2 (the first, then the rotation's), got %d", n)
	}
	if diff := cmp.Diff([]string{"Normal/CredentialsRotated"}, h.events.Take()); diff != "" {
		t.Errorf("events of the rotation: -want +got:\n%s", diff)
	}
	if got := get(cr, v1alpha1.TypeRemoteHealthy); got != "True/RemoteReachable" {
		t.Errorf("RemoteHealthy: want True/RemoteReachable, got %s", got)
	}
}

// TestVerifyDisabled: an interval of 0 never verifies and says so.
func TestVerifyDisabled(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	cr := h.store(tier(h.remote.TierURL()))
	h.expect(cr, "create", "")
	h.now = h.now.Add(24 * time.Hour)
	h.expect(cr, "none", "")
	if n := h.local.Count(rustfstest.RouteVerifyTier); n != 0 {
		t.Errorf("verify requests with verifies disabled: want 0, got %d", n)
	}
	if got := get(cr, v1alpha1.TypeRemoteHealthy); got != "Unknown/VerifyDisabled" {
		t.Errorf("RemoteHealthy: want Unknown/VerifyDisabled, got %s", got)
	}
}

// TestScheduleSpreadsFirstVerifies: Tiers without a record are first due
// over one interval after start, not at once; with a record, one interval
// plus at most a tenth after it.
func TestScheduleSpreadsFirstVerifies(t *testing.T) {
	s := schedule{interval: verifyInterval, start: t0}
	due := map[int]int{} // minute of the interval → Tiers first due in it
	for i := range 1000 {
		cr := tier("https://remote.example")
		cr.SetUID(types.UID(fmt.Sprintf("uid-%d", i)))
		for m := 0; m <= 10; m++ {
			if s.due(cr, t0.Add(time.Duration(m)*time.Minute)) {
				due[m]++
				break
			}
		}
	}
	for m := 0; m < 10; m++ {
		if due[m] > 200 {
			t.Errorf("%d of 1,000 Tiers are first due in minute %d: not spread", due[m], m)
		}
	}
	cr := tier("https://remote.example")
	cr.Status.AtProvider.Health = &v1alpha1.TierHealth{LastVerifiedAt: &metav1.Time{Time: t0}}
	if s.due(cr, t0.Add(verifyInterval-time.Second)) {
		t.Error("a Tier verified at t0 is due again before one interval")
	}
	if !s.due(cr, t0.Add(verifyDue)) {
		t.Error("a Tier verified at t0 is not due after the interval and the largest spread")
	}
}
