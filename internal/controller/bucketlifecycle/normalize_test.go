package bucketlifecycle

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// Fixture builders for client-side configurations.

type ruleModifier func(*rustfs.LifecycleRule)

func rule(id string, mods ...ruleModifier) rustfs.LifecycleRule {
	r := rustfs.LifecycleRule{ID: id, Status: "Enabled", Expiration: &rustfs.Expiration{Days: i32(30)}}
	for _, m := range mods {
		m(&r)
	}
	return r
}

func config(rules ...rustfs.LifecycleRule) *rustfs.Lifecycle { return &rustfs.Lifecycle{Rules: rules} }

func withStatus(s string) ruleModifier { return func(r *rustfs.LifecycleRule) { r.Status = s } }

func withFilter(f *rustfs.LifecycleFilter) ruleModifier {
	return func(r *rustfs.LifecycleRule) { r.Filter = f }
}

func withLegacyPrefix(p string) ruleModifier { return func(r *rustfs.LifecycleRule) { r.Prefix = &p } }

func withExpiration(x *rustfs.Expiration) ruleModifier {
	return func(r *rustfs.LifecycleRule) { r.Expiration = x }
}

func withTransitions(ts ...rustfs.Transition) ruleModifier {
	return func(r *rustfs.LifecycleRule) { r.Transitions = ts }
}

func withNoncurrentExpiration(days, newer int32) ruleModifier {
	return func(r *rustfs.LifecycleRule) {
		r.NoncurrentVersionExpiration = &rustfs.NoncurrentVersionExpiration{NoncurrentDays: i32(days), NewerNoncurrentVersions: i32(newer)}
	}
}

func withDelMarker(days int32) ruleModifier {
	return func(r *rustfs.LifecycleRule) { r.DelMarkerExpiration = &rustfs.DelMarkerExpiration{Days: i32(days)} }
}

func i32(i int32) *int32         { return &i }
func i64(i int64) *int64         { return &i }
func str(s string) *string       { return &s }
func boolp(b bool) *bool         { return &b }
func tag(k, v string) rustfs.Tag { return rustfs.Tag{Key: k, Value: v} }

type normalizeCase struct {
	reason string
	in     *rustfs.Lifecycle
	want   *rustfs.Lifecycle
}

func TestNormalize(t *testing.T) {
	cases := map[string]normalizeCase{}
	for _, table := range []map[string]normalizeCase{normalizeShapeCases(), normalizeValueCases()} {
		for name, tc := range table {
			cases[name] = tc
		}
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, normalize(tc.in)); diff != "" {
				t.Errorf("%s\nnormalize(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// normalizeShapeCases cover rules, statuses and simple filters.
func normalizeShapeCases() map[string]normalizeCase {
	return map[string]normalizeCase{
		"Nil": {
			reason: "No configuration normalises to nil.",
			in:     nil,
		},
		"NoRules": {
			reason: "A configuration without rules is no configuration.",
			in:     config(),
		},
		"RuleOrder": {
			reason: "Rules are sorted by ID.",
			in:     config(rule("b"), rule("a")),
			want:   config(rule("a"), rule("b")),
		},
		"StatusDefault": {
			reason: "An empty status means Enabled.",
			in:     config(rule("a", withStatus(""))),
			want:   config(rule("a")),
		},
		"EmptyFilter": {
			reason: "An empty filter selects the whole bucket, as no filter does.",
			in:     config(rule("a", withFilter(&rustfs.LifecycleFilter{}))),
			want:   config(rule("a")),
		},
		"EmptyPrefixFilter": {
			reason: "filter {prefix: \"\"} is the same as no filter.",
			in:     config(rule("a", withFilter(&rustfs.LifecycleFilter{Prefix: str("")}))),
			want:   config(rule("a")),
		},
		"LegacyPrefix": {
			reason: "A legacy top-level prefix is a filter prefix.",
			in:     config(rule("a", withLegacyPrefix("logs/"))),
			want:   config(rule("a", withFilter(&rustfs.LifecycleFilter{Prefix: str("logs/")}))),
		},
		"TagOrder": {
			reason: "Tags of an And are sorted by key.",
			in: config(rule("a", withFilter(&rustfs.LifecycleFilter{And: &rustfs.LifecycleAnd{
				Prefix: str("p/"), Tags: []rustfs.Tag{tag("z", "1"), tag("a", "2")}}}))),
			want: config(rule("a", withFilter(&rustfs.LifecycleFilter{And: &rustfs.LifecycleAnd{
				Prefix: str("p/"), Tags: []rustfs.Tag{tag("a", "2"), tag("z", "1")}}}))),
		},
	}
}

// normalizeValueCases cover And filters, dates, transitions and values
// meaning unset.
func normalizeValueCases() map[string]normalizeCase {
	return map[string]normalizeCase{
		"AndWithOneCondition": {
			reason: "An And holding only a tag is a tag filter.",
			in:     config(rule("a", withFilter(&rustfs.LifecycleFilter{And: &rustfs.LifecycleAnd{Prefix: str(""), Tags: []rustfs.Tag{tag("k", "v")}}}))),
			want:   config(rule("a", withFilter(&rustfs.LifecycleFilter{Tag: &rustfs.Tag{Key: "k", Value: "v"}}))),
		},
		"AndWithSize": {
			reason: "An And holding only a size bound is a size filter.",
			in:     config(rule("a", withFilter(&rustfs.LifecycleFilter{And: &rustfs.LifecycleAnd{ObjectSizeLessThan: i64(10)}}))),
			want:   config(rule("a", withFilter(&rustfs.LifecycleFilter{ObjectSizeLessThan: i64(10)}))),
		},
		"DateFormats": {
			reason: "YYYY-MM-DD, midnight RFC 3339 and the server's .000Z form are one date.",
			in: config(rule("a", withExpiration(&rustfs.Expiration{Date: "2027-01-01"}),
				withTransitions(rustfs.Transition{Date: "2026-06-01T00:00:00.000Z", StorageClass: "COLD"}))),
			want: config(rule("a", withExpiration(&rustfs.Expiration{Date: "2027-01-01T00:00:00Z"}),
				withTransitions(rustfs.Transition{Date: "2026-06-01T00:00:00Z", StorageClass: "COLD"}))),
		},
		"TransitionOrder": {
			reason: "Transitions are sorted by days, date and storage class.",
			in: config(rule("a", withTransitions(rustfs.Transition{Days: i32(90), StorageClass: "GLACIER"},
				rustfs.Transition{Days: i32(0), StorageClass: "COLD"}))),
			want: config(rule("a", withTransitions(rustfs.Transition{Days: i32(0), StorageClass: "COLD"},
				rustfs.Transition{Days: i32(90), StorageClass: "GLACIER"}))),
		},
		"UnsetMeaningValues": {
			reason: "false delete-marker flags and zero newer-version counts mean unset.",
			in: config(rule("a", withExpiration(&rustfs.Expiration{Days: i32(3), ExpiredObjectDeleteMarker: boolp(false),
				ExpiredObjectAllVersions: boolp(false)}), withNoncurrentExpiration(5, 0))),
			want: config(rule("a", withExpiration(&rustfs.Expiration{Days: i32(3)}),
				func(r *rustfs.LifecycleRule) {
					r.NoncurrentVersionExpiration = &rustfs.NoncurrentVersionExpiration{NoncurrentDays: i32(5)}
				})),
		},
	}
}
