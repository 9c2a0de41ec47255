package bucketlifecycle

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

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

type assessCase struct {
	reason        string
	desired, live *rustfs.Lifecycle
	mem           applied
	want          verdict
}

func TestAssess(t *testing.T) {
	for name, tc := range assessCases() {
		t.Run(name, func(t *testing.T) {
			got := assess(tc.desired, tc.live, tc.mem)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(verdict{})); diff != "" {
				t.Errorf("%s\nassess(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// assessCases use a spec whose delMarkerExpiration RustFS dropped.
func assessCases() map[string]assessCase {
	spec := config(rule("a", withDelMarker(3)))
	kept := config(rule("a"))
	mem := applied{AppliedHash: hash(spec), ObservedHash: hash(kept), Dropped: []string{"rules[a].delMarkerExpiration.days"}}
	return map[string]assessCase{
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
}
