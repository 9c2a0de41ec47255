package custody

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
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
