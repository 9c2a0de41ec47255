package tier

import (
	"context"
	"hash/fnv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/notify"
	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
)

// spreadShare is the share of the verify interval over which the verifies
// of Tiers with a record are spread: a Tier verifies again one interval
// after its last verify plus up to a tenth of the interval, fixed per Tier.
const spreadShare = 10

// A schedule decides when a Tier's tier is verified: at most once per
// interval (0 disables verifies). A Tier without a record of a verify,
// for example every Tier after an upgrade, is first due at a point of the
// interval after start fixed by its UID, so that a thousand Tiers do not
// verify in one burst; a record in status keeps a restarted provider from
// verifying again before the interval has passed.
type schedule struct {
	interval time.Duration
	start    time.Time
}

// due reports whether cr's tier should be verified at now.
func (s schedule) due(cr *v1alpha1.Tier, now time.Time) bool {
	if s.interval <= 0 {
		return false
	}
	h := cr.Status.AtProvider.Health
	if h == nil || h.LastVerifiedAt == nil {
		return !now.Before(s.start.Add(spread(cr, s.interval)))
	}
	return !now.Before(h.LastVerifiedAt.Add(s.interval + spread(cr, s.interval/spreadShare)))
}

// spread returns a duration in [0, d) fixed by cr's UID.
func spread(cr *v1alpha1.Tier, d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	f := fnv.New64a()
	_, _ = f.Write([]byte(cr.GetUID()))
	return time.Duration(f.Sum64() % uint64(d))
}

// health runs RustFS's verify of the tier if it is due (or if force is
// set: a credentials edit was just applied) and sets RemoteHealthy from its
// outcome. A verify writes a probe object on the remote, so it never runs
// per poll. A failure keeps Ready: the tier is still registered. A
// cancelled verify records nothing and is tried again at the next poll.
func (e *external) health(ctx context.Context, cr *v1alpha1.Tier, force bool) {
	gen := cr.GetGeneration()
	switch {
	case e.verify.interval <= 0:
		cr.SetConditions(condition(v1alpha1.TypeRemoteHealthy, corev1.ConditionUnknown, v1alpha1.ReasonVerifyDisabled,
			"verifies are disabled (--tier-verify-interval=0)", gen))
		return
	case !force && !e.verify.due(cr, e.now()):
		if cr.GetCondition(v1alpha1.TypeRemoteHealthy).Status == corev1.ConditionUnknown {
			cr.SetConditions(condition(v1alpha1.TypeRemoteHealthy, corev1.ConditionUnknown, v1alpha1.ReasonVerifyPending,
				"the first verify of the tier is not due yet", gen))
		}
		return
	}
	at := metav1.NewTime(e.now())
	err := e.api.VerifyTier(ctx, cr.Spec.ForProvider.Name)
	if ctx.Err() != nil {
		return
	}
	cr.Status.AtProvider.Health = &v1alpha1.TierHealth{LastVerifiedAt: &at}
	if err != nil {
		// The client scrubs every server text (docs/rustfs-wire.md §19).
		cr.SetConditions(condition(v1alpha1.TypeRemoteHealthy, corev1.ConditionFalse, v1alpha1.ReasonRemoteUnhealthy, err.Error(), gen))
		return
	}
	cr.SetConditions(condition(v1alpha1.TypeRemoteHealthy, corev1.ConditionTrue, v1alpha1.ReasonRemoteReachable, "", gen))
}

// Event reasons (announce).
const (
	reasonRegistered         event.Reason = "Registered"
	reasonAdopted            event.Reason = "Adopted"
	reasonCredentialsRotated event.Reason = "CredentialsRotated"
	reasonConflictFound      event.Reason = "ConflictFound"
	reasonConflictCleared    event.Reason = "ConflictCleared"
	reasonRemoteUnhealthy    event.Reason = "RemoteUnhealthy"
	reasonRemoteHealthy      event.Reason = "RemoteHealthy"
)

// A before is what announce compares with: the Tier as the reconcile read
// it, that is as the last reconcile persisted it.
type before struct {
	conflict, healthy corev1.ConditionStatus
	adopted           bool
}

func snapshot(cr *v1alpha1.Tier) before {
	return before{conflict: cr.GetCondition(v1alpha1.TypeTierConflict).Status,
		healthy: cr.GetCondition(v1alpha1.TypeRemoteHealthy).Status, adopted: adoptedAndReady(cr)}
}

// adoptedAndReady reports whether the Tier manages a tier it adopted.
func adoptedAndReady(cr *v1alpha1.Tier) bool {
	return cr.Status.AtProvider.Adopted && notify.Ready(cr.GetCondition(xpv2.TypeReady))
}

// announce raises one event for each change between b and cr: a conflict
// found or cleared, the tier adopted, the remote turning unhealthy or
// healthy again. It compares persisted state, never a memory of the
// process, so a poll that changes nothing raises nothing, and a restart
// does not raise again. It also exports the Tier's health.
func announce(rec event.Recorder, cr *v1alpha1.Tier, b before) {
	c := notify.Change{Was: b.conflict, Now: cr.GetCondition(v1alpha1.TypeTierConflict), Bad: corev1.ConditionTrue}
	notify.Turn(rec, cr, c, notify.Events{Bad: reasonConflictFound, Good: reasonConflictCleared,
		Healed: "the tier matches the spec and no other Tier claims it"})
	notify.Adopted(rec, cr, b.adopted, adoptedAndReady(cr), reasonAdopted, "adopted the existing tier "+cr.Spec.ForProvider.Name)
	announceHealth(rec, cr, b)
}

// announceHealth raises the event of the remote turning unhealthy or
// healthy again, and exports the Tier's health.
func announceHealth(rec event.Recorder, cr *v1alpha1.Tier, b before) {
	h := cr.GetCondition(v1alpha1.TypeRemoteHealthy)
	notify.Turn(rec, cr, notify.Change{Was: b.healthy, Now: h, Bad: corev1.ConditionFalse},
		notify.Events{Bad: reasonRemoteUnhealthy, Good: reasonRemoteHealthy, Healed: "RustFS verified the remote tier again"})
	if h.Status != corev1.ConditionUnknown {
		metrics.SetTierHealth(cr.GetNamespace(), cr.GetName(), h.Status == corev1.ConditionTrue)
	}
}
