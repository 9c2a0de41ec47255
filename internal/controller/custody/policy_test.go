package custody

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func TestSelects(t *testing.T) {
	team := map[string]string{"team": "a"}
	cases := map[string]struct {
		reason  string
		sel     *metav1.LabelSelector
		labels  map[string]string
		want    bool
		wantErr bool
	}{
		"Absent":       {reason: "No selector serves every namespace.", labels: nil, want: true},
		"Empty":        {reason: "An empty selector selects every namespace, as in Kubernetes.", sel: &metav1.LabelSelector{}, want: true},
		"LabelMatches": {reason: "A matching label selects.", sel: &metav1.LabelSelector{MatchLabels: team}, labels: team, want: true},
		"LabelMissing": {reason: "A namespace without the label is not selected.", sel: &metav1.LabelSelector{MatchLabels: team}},
		"Expression": {reason: "Expressions are ANDed with labels.", labels: map[string]string{"team": "a", "tier": "gold"}, want: true,
			sel: &metav1.LabelSelector{MatchLabels: team, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "In", Values: []string{"gold"}}}}},
		"Invalid": {reason: "An invalid selector selects nothing and says why.", labels: team, wantErr: true,
			sel: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "team", Operator: "Like"}}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Selects(tc.sel, tc.labels)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("%s\nSelects(...): want %t (error %t), got %t (%v)", tc.reason, tc.want, tc.wantErr, got, err)
			}
		})
	}
}

func TestOutside(t *testing.T) {
	prefix := v1alpha1.TenancySettings{NameScope: v1alpha1.NameScopeNamespacePrefix, SharedTiers: []string{"ARCHIVE"}}
	cases := map[string]struct {
		reason string
		t      v1alpha1.TenancySettings
		names  Names
		want   []string
	}{
		"ClusterScope": {reason: "With nameScope Cluster every name is allowed.",
			t: v1alpha1.TenancySettings{NameScope: v1alpha1.NameScopeCluster}, names: Names{Tiers: []string{"COLD"}, Buckets: []string{"data"}}},
		"InSlice": {reason: "Names with the namespace's prefix are allowed; tiers upper-cased.", t: prefix,
			names: Names{Tiers: []string{"TEAM-A-COLD"}, Buckets: []string{"team-a-data"}, StorageClasses: []string{"TEAM-A-COLD"}}},
		"SharedTransition": {reason: "A transition may name a shared tier.", t: prefix, names: Names{StorageClasses: []string{"ARCHIVE"}}},
		"SharedTierNotManaged": {reason: "A shared tier grants no right to manage it.", t: prefix,
			names: Names{Tiers: []string{"ARCHIVE"}}, want: []string{`tier "ARCHIVE" does not start with "TEAM-A-"`}},
		"OtherNamespace": {reason: "Another namespace's names are outside the slice.", t: prefix,
			names: Names{Tiers: []string{"TEAM-B-COLD"}, Buckets: []string{"team-b-data", "team-a"}, StorageClasses: []string{"TEAM-B-COLD"}},
			want: []string{
				`tier "TEAM-B-COLD" does not start with "TEAM-A-"`,
				`bucket "team-b-data" does not start with "team-a-"`,
				`bucket "team-a" does not start with "team-a-"`,
				`storage class "TEAM-B-COLD" is neither a tier starting with "TEAM-A-" nor a shared tier`,
			}},
		"NotKnownYet": {reason: "A name not set yet is checked once it is.", t: prefix, names: Names{Buckets: []string{""}}},
		"PrefixOfAnotherNamespace": {reason: "Namespace team-a does not own the names of namespace team-ab.", t: prefix,
			names: Names{Buckets: []string{"team-ab-data"}}, want: []string{`bucket "team-ab-data" does not start with "team-a-"`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Outside("team-a", tc.t, tc.names, nil)); diff != "" {
				t.Errorf("%s\nOutside(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestLongestPrefixWins decides, through Taken and Outside, which names a
// namespace owns when namespace names prefix each other: a name belongs
// to the namespace with the longest matching prefix among those that
// exist.
func TestLongestPrefixWins(t *testing.T) {
	prefix := v1alpha1.TenancySettings{NameScope: v1alpha1.NameScopeNamespacePrefix, SharedTiers: []string{"TEAM-A-ARCHIVE"}}
	cases := map[string]struct {
		reason  string
		ns      string
		exist   NamespaceReader
		names   Names
		want    []string
		wantErr bool
	}{
		"LongerPrefixOwns": {reason: "team-a's prefix is longer than team's, so team-a-data is team-a's.",
			ns: "team", exist: exist("team", "team-a"), names: Names{Buckets: []string{"team-a-data", "team-data"}},
			want: []string{`bucket "team-a-data" belongs to a longer namespace prefix`}},
		"LongerPrefixAbsent": {reason: "Without a namespace team-a, team-a-data is team's.",
			ns: "team", exist: exist("team", "team-b"), names: Names{Buckets: []string{"team-a-data"}}},
		"ShorterPrefixTakesNothing": {reason: "team's shorter prefix takes nothing from team-a.",
			ns: "team-a", exist: exist("team", "team-a"), names: Names{Buckets: []string{"team-a-data"}, Tiers: []string{"TEAM-A-COLD"}}},
		"LongestOfThree": {reason: "Of team, team-a and team-a-b, the longest matching prefix owns a name.",
			ns: "team-a", exist: exist("team", "team-a", "team-a-b"), names: Names{Buckets: []string{"team-a-b-data", "team-a-c-data"}},
			want: []string{`bucket "team-a-b-data" belongs to a longer namespace prefix`}},
		"SkipsAMissingMiddle": {reason: "team-a-b owns team-a-b-x over team even when team-a does not exist.",
			ns: "team", exist: exist("team", "team-a-b"), names: Names{Buckets: []string{"team-a-b-x", "team-a-c-x"}},
			want: []string{`bucket "team-a-b-x" belongs to a longer namespace prefix`}},
		"Tiers": {reason: "Tier names follow the same rule, upper-cased; so do transitions' storage classes.",
			ns: "team", exist: exist("team", "team-a"), names: Names{Tiers: []string{"TEAM-A-COLD"}, StorageClasses: []string{"TEAM-A-WARM", "TEAM-WARM"}},
			want: []string{`tier "TEAM-A-COLD" belongs to a longer namespace prefix`, `storage class "TEAM-A-WARM" belongs to a longer namespace prefix`}},
		"SharedTierStaysUsable": {reason: "A shared tier is usable from every namespace, whatever prefix it has.",
			ns: "team", exist: exist("team", "team-a"), names: Names{StorageClasses: []string{"TEAM-A-ARCHIVE"}}},
		"NoNamespaceAccess": {reason: "Without access to Namespaces a name a longer prefix could own is refused; others are not.",
			ns: "team", exist: Namespaces{}, names: Names{Buckets: []string{"team-a-data", "team-data"}},
			want: []string{`bucket "team-a-data" may belong to a longer namespace prefix, which the provider cannot tell without access to Namespaces`}},
		"CacheError": {reason: "A failure to read a Namespace is an error, retried, not a decision.",
			ns: "team", exist: namespaceLabels{err: errors.New("cache not started")}, names: Names{Buckets: []string{"team-a-data"}}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			taken, err := Taken(context.Background(), tc.exist, tc.ns, tc.names)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nTaken(...): want error %t, got %v", tc.reason, tc.wantErr, err)
			}
			if diff := cmp.Diff(tc.want, Outside(tc.ns, prefix, tc.names, taken)); err == nil && diff != "" {
				t.Errorf("%s\nOutside(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// exist is a NamespaceReader of the namespaces names, without labels.
func exist(names ...string) NamespaceReader {
	l := namespaceLabels{labels: map[string]map[string]string{}}
	for _, n := range names {
		l.labels[n] = nil
	}
	return l
}
