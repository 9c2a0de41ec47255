package e2e

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// forEachLostAnswer runs f for every way of losing the answer to a write
// that RustFS applied against RustFS GA, and for a reset against rc (the
// modes differ in what RustFS checks before it writes, not in how an answer
// is lost).
func forEachLostAnswer(t *testing.T, f func(t *testing.T, mode rustfstest.Mode, loss rustfstest.Loss)) {
	for _, mode := range modes {
		for name, loss := range lostAnswers {
			if mode == rustfstest.ModeRC && loss != rustfstest.LossReset {
				continue
			}
			t.Run(mode.String()+"/"+name, func(t *testing.T) { f(t, mode, loss) })
		}
	}
}

// A tier add whose answer is lost after RustFS registered the tier is
// never sent again: the next reconcile lists the tier, adopts it with at
// most one credential edit (its answer never said the keys were applied)
// and is Ready; later reconciles write nothing.
func TestFaultLostAnswerOnTierAddRegistersTheTierOnce(t *testing.T) {
	testenv.Skip(t)
	forEachLostAnswer(t, func(t *testing.T, mode rustfstest.Mode, loss rustfstest.Loss) {
		w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
		keys := record(t, func() string { return w.tierKeys("COLD") })
		w.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Lost: loss, Times: 1})
		tr := w.tier("cold", "COLD")
		w.create(tr)
		w.waitReady(tr)

		if n := w.local.Count(rustfstest.RouteAddTier); n != 1 {
			t.Errorf("tier adds: want 1 (the add whose answer was lost), got %d", n)
		}
		if n := w.local.Count(rustfstest.RouteEditTier); n > 1 {
			t.Errorf("credential edits: want at most 1, got %d", n)
		}
		if diff := cmp.Diff([]string{"absent", "remote"}, keys.Values()); diff != "" {
			t.Errorf("credentials tier COLD held over time: -want, +got:\n%s", diff)
		}
		w.expectCredentialsStatus(tr, tierSecretName)
		w.expectNoWritesOnReconcile(rustfstest.RouteListTiers, tr)
	})
}

// A credential edit whose answer is lost after RustFS took the new keys is
// retried with the same new keys: the tier never goes back to the old
// ones, and the Tier records the rotated Secret.
func TestFaultLostAnswerOnCredentialEditNeverRollsBack(t *testing.T) {
	testenv.Skip(t)
	forEachLostAnswer(t, func(t *testing.T, mode rustfstest.Mode, loss rustfstest.Loss) {
		w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
		tr := w.tier("cold", "COLD")
		w.create(tr)
		w.waitReady(tr)
		keys := record(t, func() string { return w.tierKeys("COLD") })
		w.local.ResetCounters()
		w.local.InjectFault(rustfstest.RouteEditTier, rustfstest.Fault{Lost: loss, Times: 1})

		if err := env.Client.Update(w.ctx, secret(w.ns, tierSecretName, rotatedAK, rotatedSK)); err != nil {
			t.Fatalf("cannot update Secret: %v", err)
		}
		w.expectCredentialsStatus(tr, tierSecretName)
		w.waitReady(tr)
		w.expectNoWritesOnReconcile(rustfstest.RouteListTiers, tr)

		if diff := cmp.Diff([]string{"remote", "rotated"}, keys.Values()); diff != "" {
			t.Errorf("credentials tier COLD held over time: -want, +got:\n%s", diff)
		}
		if n := w.local.Count(rustfstest.RouteEditTier); n < 1 || n > 2 {
			t.Errorf("credential edits: want the lost one and at most one retry, got %d", n)
		}
		w.expectCounts(map[string]int{rustfstest.RouteAddTier: 0})
	})
}

// lifecycleVersion names the lifecycle bucket data holds: "none", "v1"
// (expire after 30 days), "v2" (after 60) or "other".
func (w *world) lifecycleVersion() string {
	xml, ok := w.local.Lifecycle("data")
	switch {
	case !ok:
		return "none"
	case strings.Contains(string(xml), "<Days>30</Days>"):
		return "v1"
	case strings.Contains(string(xml), "<Days>60</Days>"):
		return "v2"
	}
	return "other"
}

// A lifecycle put whose answer is lost after RustFS stored the new rules
// converges on them: the bucket never holds the older rules again.
func TestFaultLostAnswerOnLifecyclePutNeverRestoresAnOlderVersion(t *testing.T) {
	testenv.Skip(t)
	forEachLostAnswer(t, func(t *testing.T, mode rustfstest.Mode, loss rustfstest.Loss) {
		w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
		b := w.bucket("data")
		lc := w.lifecycle("data", "data", []v1alpha1.LifecycleRule{rule("expire", expireAfter(30))})
		w.create(b, lc)
		w.waitReady(b, lc)
		versions := record(t, w.lifecycleVersion)
		w.local.ResetCounters()
		w.local.InjectFault(rustfstest.RoutePutLifecycle, rustfstest.Fault{Lost: loss, Times: 1})

		w.setExpiration("data", 60)
		w.eventually(func(g gomega.Gomega) {
			g.Expect(w.local.Count(rustfstest.RoutePutLifecycle)).To(gomega.BeNumerically(">=", 1), "lifecycle puts")
			w.get(g, lc)
			c := lc.GetCondition(xpv2.TypeSynced)
			g.Expect(c.ObservedGeneration).To(gomega.Equal(lc.GetGeneration()), "observedGeneration of Synced: %s", describe(c))
		})
		w.waitReady(lc)
		w.expectNoWritesOnReconcile(rustfstest.RouteGetLifecycle, lc)

		if diff := cmp.Diff([]string{"v1", "v2"}, versions.Values()); diff != "" {
			t.Errorf("lifecycle of bucket data over time: -want, +got:\n%s", diff)
		}
		if n := w.local.Count(rustfstest.RoutePutLifecycle); n > 2 {
			t.Errorf("lifecycle puts: want the lost one and at most one retry, got %d", n)
		}
	})
}

// A bucket create whose answer is lost after RustFS made the bucket is
// never sent again: the next reconcile finds the bucket and is Ready.
func TestFaultLostAnswerOnBucketCreateCreatesItOnce(t *testing.T) {
	testenv.Skip(t)
	forEachLostAnswer(t, func(t *testing.T, mode rustfstest.Mode, loss rustfstest.Loss) {
		w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
		w.local.InjectFault(rustfstest.RouteCreateBucket, rustfstest.Fault{Lost: loss, Times: 1})
		b := w.bucket("data")
		w.create(b)
		w.waitReady(b)

		if n := w.local.Count(rustfstest.RouteCreateBucket); n != 1 {
			t.Errorf("bucket creates: want 1 (the create whose answer was lost), got %d", n)
		}
		if !w.local.HasBucket("data") {
			t.Error("bucket data does not exist")
		}
		w.expectNoWritesOnReconcile(rustfstest.RouteHeadBucket, b)
	})
}
