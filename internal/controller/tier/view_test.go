package tier

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/tier/tierview"
)

func onConfig(name string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ProviderConfigReference.Name = name }
}

func TestChangesMapToTheTiersNamingTheTier(t *testing.T) {
	kube := fakeKube(t,
		tier("http://r", withMeta(ns, "cold", 0), onConfig("a")),
		tier("http://r", withMeta("team-b", "cold-b", 0), onConfig("a")),
		tier("http://r", withMeta(ns, "cold-elsewhere", 0), onConfig("b")),
		tier("http://r", withMeta(ns, "warm", 0), withName("WARM"), onConfig("a")),
		tier("http://r", withMeta(ns, "hot", 0), withName("HOT"), onConfig("a")))
	cases := map[string]struct {
		reason  string
		changes []tierview.Change
		want    []string
	}{
		"OneTier": {
			reason:  "Every Tier naming the changed tier is enqueued, in any namespace and on any RustFS; no ProviderConfig is read to tell.",
			changes: []tierview.Change{{Endpoint: "http://a", Tier: "COLD"}},
			want:    []string{"team-a/cold", "team-a/cold-elsewhere", "team-b/cold-b"},
		},
		"SeveralTiers": {
			reason:  "One list's changes enqueue the Tiers of each changed tier once.",
			changes: []tierview.Change{{Endpoint: "http://a", Tier: "WARM"}, {Endpoint: "http://a", Tier: "HOT"}, {Endpoint: "http://a", Tier: "WARM"}},
			want:    []string{"team-a/hot", "team-a/warm"},
		},
		"Unclaimed": {
			reason:  "A tier no Tier names enqueues nothing.",
			changes: []tierview.Change{{Endpoint: "http://a", Tier: "ARCHIVE"}},
			want:    []string{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := requestNames(tiersNaming(kube, logging.NewNopLogger())(ctx(t), tc.changes))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nenqueued: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSendNeverBlocks(t *testing.T) {
	ch := make(chan event.TypedGenericEvent[[]tierview.Change], 1)
	notify := send(ch, logging.NewNopLogger())
	first := []tierview.Change{{Endpoint: "http://a", Tier: "COLD"}}
	done := make(chan struct{})
	go func() {
		notify(first)
		notify([]tierview.Change{{Endpoint: "http://a", Tier: "WARM"}})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("notify blocked on a full channel")
	}
	if got := (<-ch).Object; !cmp.Equal(got, first) {
		t.Errorf("event: got %v, want the first list's changes", got)
	}
}

func TestTierListSelectsTheListMode(t *testing.T) {
	cases := map[string]struct {
		reason     string
		naive      bool
		wantShared bool
	}{
		"Shared": {reason: "By default every reconcile reads the shared list, and the View runs with the manager.", wantShared: true},
		"Naive":  {reason: "The benchmark's naive mode keeps one list request per reconcile.", naive: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var added []manager.Runnable
			add := func(r manager.Runnable) error { added = append(added, r); return nil }
			lists := 0
			newClient := func(rustfs.Config) (rustfs.TierAPI, error) { return countingTiers{n: &lists}, nil }
			o := options.Options{NaiveTierList: tc.naive}
			o.PollInterval = time.Hour
			tiers, err := tierList(add, o, listWith(newClient), func([]tierview.Change) {})
			if err != nil {
				t.Fatalf("tierList: %v", err)
			}
			conn := &connection.Connection{Endpoint: "http://a", Config: rustfs.Config{AccessKey: "AK"}}
			for range 3 {
				if _, err := tiers.List(ctx(t), conn); err != nil {
					t.Fatal(err)
				}
			}
			want := map[bool]int{true: 1, false: 3}[tc.wantShared]
			if lists != want || (len(added) == 1) != tc.wantShared {
				t.Errorf("%s\n3 reconciles made %d list requests and added %d runnables; want %d requests", tc.reason, lists, len(added), want)
			}
		})
	}
}

// countingTiers is a rustfs.TierAPI that counts tier lists; any other
// call panics.
type countingTiers struct {
	rustfs.TierAPI
	n *int
}

func (c countingTiers) ListTiers(context.Context) ([]rustfs.Tier, error) { *c.n++; return nil, nil }
