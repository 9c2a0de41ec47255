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

func TestNormalize(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     *rustfs.Lifecycle
		want   *rustfs.Lifecycle
	}{
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
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, normalize(tc.in)); diff != "" {
				t.Errorf("%s\nnormalize(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	cases := map[string]struct {
		reason  string
		desired *rustfs.Lifecycle
		live    *rustfs.Lifecycle
		want    []string
	}{
		"Equal": {
			reason:  "The server's rendering of the same rules is equal.",
			desired: config(rule("b", withFilter(&rustfs.LifecycleFilter{})), rule("a", withExpiration(&rustfs.Expiration{Date: "2027-01-01"}))),
			live:    config(rule("a", withExpiration(&rustfs.Expiration{Date: "2027-01-01T00:00:00.000Z"})), rule("b")),
		},
		"ValueChanged": {
			reason:  "A changed value names the field with both values.",
			desired: config(rule("a")),
			live:    config(rule("a", withExpiration(&rustfs.Expiration{Days: i32(7)}))),
			want:    []string{`rules[a].expiration.days: live "7", desired "30"`},
		},
		"FieldMissing": {
			reason:  "A field the live configuration lacks is named.",
			desired: config(rule("a", withDelMarker(3))),
			live:    config(rule("a")),
			want:    []string{`rules[a].delMarkerExpiration.days: live absent, desired "3"`},
		},
		"ExtraField": {
			reason:  "A field only the live configuration has is named.",
			desired: config(rule("a")),
			live:    config(rule("a", withStatus("Disabled"), withDelMarker(3))),
			want: []string{`rules[a].delMarkerExpiration.days: live "3", desired absent`,
				`rules[a].status: live "Disabled", desired "Enabled"`},
		},
		"RuleMissingAndExtra": {
			reason:  "Whole rules missing or extra are one line each.",
			desired: config(rule("a"), rule("b")),
			live:    config(rule("a"), rule("rule-0")),
			want:    []string{"rules[b]: missing from the live configuration", "rules[rule-0]: in the live configuration but not in the spec"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, compare(tc.desired, tc.live)); diff != "" {
				t.Errorf("%s\ncompare(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDropped(t *testing.T) {
	cases := map[string]struct {
		reason   string
		put      *rustfs.Lifecycle
		readback *rustfs.Lifecycle
		want     []string
	}{
		"AllKept": {
			reason:   "A configuration read back in the server's form keeps every field.",
			put:      config(rule("a", withExpiration(&rustfs.Expiration{Date: "2027-01-01"}))),
			readback: config(rule("a", withExpiration(&rustfs.Expiration{Date: "2027-01-01T00:00:00.000Z"}))),
		},
		"FieldDropped": {
			reason:   "A field the server did not keep is named by its spec path.",
			put:      config(rule("a", withDelMarker(3)), rule("b", withNoncurrentExpiration(5, 2))),
			readback: config(rule("a"), rule("b", withNoncurrentExpiration(5, 0))),
			want:     []string{"rules[a].delMarkerExpiration.days", "rules[b].noncurrentVersionExpiration.newerNoncurrentVersions"},
		},
		"RuleDropped": {
			reason:   "A rule missing altogether is named once.",
			put:      config(rule("a"), rule("b")),
			readback: config(rule("a")),
			want:     []string{"rules[b]"},
		},
		"NothingReadBack": {
			reason: "Nothing read back drops every rule.",
			put:    config(rule("a")),
			want:   []string{"rules[a]"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, dropped(tc.put, tc.readback)); diff != "" {
				t.Errorf("%s\ndropped(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestHash(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   *rustfs.Lifecycle
		equal  bool
	}{
		"Empty": {
			reason: "No configuration and one without rules hash alike.",
			a:      nil, b: config(), equal: true,
		},
		"Normalised": {
			reason: "Configurations equal after normalisation hash alike.",
			a:      config(rule("b"), rule("a", withFilter(&rustfs.LifecycleFilter{Prefix: str("")}))),
			b:      config(rule("a"), rule("b", withStatus(""))),
			equal:  true,
		},
		"Different": {
			reason: "A different value hashes differently.",
			a:      config(rule("a")), b: config(rule("a", withExpiration(&rustfs.Expiration{Days: i32(31)}))),
		},
		"NoBoundaryCollision": {
			reason: "Moving characters between a rule ID and a value changes the hash.",
			a:      config(rule("a", withFilter(&rustfs.LifecycleFilter{Prefix: str("bc")}))),
			b:      config(rule("ab", withFilter(&rustfs.LifecycleFilter{Prefix: str("c")}))),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := hash(tc.a) == hash(tc.b); got != tc.equal {
				t.Errorf("%s\nhash(a) == hash(b): want %t, got %t", tc.reason, tc.equal, got)
			}
		})
	}
}

func TestAssess(t *testing.T) {
	spec := config(rule("a", withDelMarker(3)))
	kept := config(rule("a"))
	mem := applied{AppliedHash: hash(spec), ObservedHash: hash(kept), Dropped: []string{"rules[a].delMarkerExpiration.days"}}
	cases := map[string]struct {
		reason        string
		desired, live *rustfs.Lifecycle
		mem           applied
		want          verdict
	}{
		"NothingOnEitherSide": {
			reason: "No rules and no live configuration is up to date.",
			want:   verdict{exists: true, upToDate: true},
		},
		"NoLiveConfiguration": {
			reason:  "Rules and no live configuration must be created.",
			desired: spec,
			want:    verdict{diff: []string{"the bucket has no lifecycle configuration"}},
		},
		"NoRules": {
			reason: "No rules and a live configuration must be deleted.",
			live:   kept,
			want:   verdict{exists: true, diff: []string{"spec.forProvider.rules is empty: the live configuration is to be deleted"}},
		},
		"CoveredByMemory": {
			reason:  "The spec that was put and what RustFS kept of it are up to date, with the dropped fields.",
			desired: spec, live: kept, mem: mem,
			want: verdict{exists: true, upToDate: true, dropped: mem.Dropped},
		},
		"SpecChanged": {
			reason:  "A spec that differs from what was put is compared normally.",
			desired: config(rule("a", withDelMarker(4))), live: kept, mem: mem,
			want: verdict{exists: true, diff: []string{`rules[a].delMarkerExpiration.days: live absent, desired "4"`}},
		},
		"LiveChanged": {
			reason:  "A live configuration edited out of band is compared normally.",
			desired: spec, live: config(rule("a", withStatus("Disabled"))), mem: mem,
			want: verdict{exists: true, diff: []string{`rules[a].delMarkerExpiration.days: live absent, desired "3"`,
				`rules[a].status: live "Disabled", desired "Enabled"`}},
		},
		"Adopted": {
			reason:  "A live configuration equal to the spec is up to date without any memory.",
			desired: kept, live: kept,
			want: verdict{exists: true, upToDate: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := assess(tc.desired, tc.live, tc.mem)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(verdict{})); diff != "" {
				t.Errorf("%s\nassess(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
