package main

import (
	"cmp"
	"maps"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func tierWith(name string, ready corev1.ConditionStatus) *v1alpha1.Tier {
	t := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: benchNS, Name: name}}
	t.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: ready})
	return t
}

func bucketWith(name string, ready corev1.ConditionStatus) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: benchNS, Name: name}}
	b.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: ready})
	return b
}

// An event is one update the tracker's informers deliver.
type event struct {
	kind string
	obj  any
}

func TestKindsReady(t *testing.T) {
	cases := map[string]struct {
		reason string
		events []event
		want   []string // kinds with a last Ready, in the order they turned Ready
	}{
		"NoneReady": {reason: "A kind none of whose resources is Ready has no time.",
			events: []event{{v1alpha1.TierKind, tierWith("a", corev1.ConditionFalse)}}},
		"LastOfEachKind": {reason: "Each kind's time is when its last resource turned Ready.",
			events: []event{{v1alpha1.TierKind, tierWith("a", corev1.ConditionTrue)}, {v1alpha1.BucketKind, bucketWith("a", corev1.ConditionTrue)},
				{v1alpha1.TierKind, tierWith("b", corev1.ConditionTrue)}},
			want: []string{v1alpha1.BucketKind, v1alpha1.TierKind}},
		"StayingReadyIsNotTurningReady": {reason: "An update of a resource already Ready does not move its kind's time.",
			events: []event{{v1alpha1.TierKind, tierWith("a", corev1.ConditionTrue)}, {v1alpha1.BucketKind, bucketWith("a", corev1.ConditionTrue)},
				{v1alpha1.TierKind, tierWith("a", corev1.ConditionTrue)}},
			want: []string{v1alpha1.TierKind, v1alpha1.BucketKind}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tr := &tracker{want: 10, ready: map[string]map[string]bool{}, lastOf: map[string]time.Time{}, done: make(chan struct{})}
			for _, k := range kinds {
				tr.ready[k] = map[string]bool{}
			}
			start := time.Now()
			for _, e := range tc.events {
				time.Sleep(time.Millisecond) // distinct times
				tr.observe(e.kind, e.obj)
			}
			got := tr.kindsReady(start)
			// The kinds, ordered by when their last resource turned Ready.
			order := slices.SortedFunc(maps.Keys(got), func(a, b string) int { return cmp.Compare(got[a], got[b]) })
			if diff := gocmp.Diff(tc.want, order); diff != "" {
				t.Errorf("%s\nkinds by last Ready: -want +got:\n%s", tc.reason, diff)
			}
			for k, d := range got {
				if d <= 0 {
					t.Errorf("%s\n%s turned Ready %s after the start; want a positive time", tc.reason, k, d)
				}
			}
		})
	}
}
