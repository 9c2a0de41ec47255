package custody

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func TestShorterNamespaces(t *testing.T) {
	cases := map[string]struct {
		reason string
		name   string
		want   []string
	}{
		"NoDash":     {reason: "A namespace without '-' takes names from no other.", name: "team"},
		"OneShorter": {reason: "team-a takes team-a-… from team.", name: "team-a", want: []string{"team"}},
		"Several":    {reason: "team-a-b takes names from team and team-a.", name: "team-a-b", want: []string{"team", "team-a"}},
		"DoubleDash": {reason: "A start that ends in '-' is no namespace.", name: "team--a", want: []string{"team"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, shorterNamespaces(tc.name)); diff != "" {
				t.Errorf("%s\nshorterNamespaces(%q): -want +got:\n%s", tc.reason, tc.name, diff)
			}
		})
	}
}

func TestRecordRequests(t *testing.T) {
	holder := named("a", "holder", 0)
	cases := map[string]struct {
		reason string
		record *v1alpha1.CustodyRecord
		want   []reconcile.Request
	}{
		"HolderNamespace": {
			reason: "A record's change reaches the resources of its holder's namespace that name its object, and no other.",
			record: record(holder, v1alpha1.PhaseCreated, ""),
			want:   []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: "a", Name: "holder"}}, {NamespacedName: types.NamespacedName{Namespace: "a", Name: "young"}}},
		},
		"ReleasedFor": {
			reason: "A record Released for a namespace reaches that namespace's resources naming its object.",
			record: record(nil, v1alpha1.PhaseReleased, "b"),
			want:   []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: "b", Name: "older"}}},
		},
		"OtherKind": {
			reason: "A record of another kind reaches nothing.",
			record: func() *v1alpha1.CustodyRecord {
				r := record(holder, v1alpha1.PhaseCreated, "")
				r.Spec.Kind = v1alpha1.CustodyTier
				return r
			}(),
		},
	}
	other := named("a", "other", time.Hour)
	meta.SetExternalName(other, "logs")
	cu := newCustodian(t, holder, named("a", "young", time.Hour), named("b", "older", 0), other)
	w := Watch{Kube: cu.Kube, List: func() client.ObjectList { return &v1alpha1.BucketList{} }, Log: logging.NewNopLogger(), Kind: v1alpha1.CustodyBucket}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := w.record(context.Background(), tc.record)
			sort.Slice(got, func(i, j int) bool { return got[i].String() < got[j].String() })
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nrecord: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// The holder is not woken by the changes its own pass makes of its record
// (creation, a change of phase alone); every other resource the record
// reaches is, and every other change wakes the holder too.
func TestRecordEvents(t *testing.T) {
	holder, young, heir := named("a", "holder", 0), named("a", "young", time.Hour), named("b", "heir", 0)
	creating, created := record(holder, v1alpha1.PhaseCreating, ""), record(holder, v1alpha1.PhaseCreated, "")
	moved := record(heir, v1alpha1.PhaseCreated, "")
	cases := map[string]struct {
		reason   string
		old, new client.Object // no old: a create; no new: a delete
		want     []reconcile.Request
	}{
		"Created": {
			reason: "The record's creation wakes the other resources of the holder's namespace naming the object, not the holder.",
			new:    creating, want: requestsOf(young),
		},
		"PhaseOnly": {
			reason: "A change of phase alone, with the same holder, does not wake the holder.",
			old:    creating, new: created, want: requestsOf(young),
		},
		"HolderChanged": {
			reason: "A record moved to another namespace wakes the resources of both namespaces, the former holder included.",
			old:    created, new: moved, want: requestsOf(holder, young, heir),
		},
		"Deleted": {
			reason: "A deleted record wakes the holder.",
			old:    created, want: requestsOf(holder, young),
		},
	}
	cu := newCustodian(t, holder, young, heir)
	w := Watch{Kube: cu.Kube, List: func() client.ObjectList { return &v1alpha1.BucketList{} }, Log: logging.NewNopLogger(), Kind: v1alpha1.CustodyBucket}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := sendRecordEvent(w.records(), tc.old, tc.new)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nrequests: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func requestsOf(bs ...*v1alpha1.Bucket) []reconcile.Request {
	out := make([]reconcile.Request, 0, len(bs))
	for _, b := range bs {
		out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: b.Namespace, Name: b.Name}})
	}
	return out
}

// sendRecordEvent sends h the event from old to new and returns the
// requests it enqueued, sorted.
func sendRecordEvent(h handler.EventHandler, old, new client.Object) []reconcile.Request {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	defer q.ShutDown()
	ctx := context.Background()
	switch {
	case old == nil:
		h.Create(ctx, event.CreateEvent{Object: new}, q)
	case new == nil:
		h.Delete(ctx, event.DeleteEvent{Object: old}, q)
	default:
		h.Update(ctx, event.UpdateEvent{ObjectOld: old, ObjectNew: new}, q)
	}
	var got []reconcile.Request
	for q.Len() > 0 {
		r, _ := q.Get()
		got = append(got, r)
		q.Done(r)
	}
	sort.Slice(got, func(i, j int) bool { return got[i].String() < got[j].String() })
	return got
}
