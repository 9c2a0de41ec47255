package bucketlifecycle

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// Fixture builders for spec rules.

type specModifier func(*v1alpha1.LifecycleRule)

func specRule(id string, mods ...specModifier) v1alpha1.LifecycleRule {
	r := v1alpha1.LifecycleRule{ID: id}
	for _, m := range mods {
		m(&r)
	}
	return r
}

func transitionTo(class string, days int32) specModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.Transitions = append(r.Transitions, v1alpha1.Transition{Days: &days, StorageClass: class})
	}
}

func transitionOn(class, date string) specModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.Transitions = append(r.Transitions, v1alpha1.Transition{Date: date, StorageClass: class})
	}
}

func expireAfter(days int32) specModifier {
	return func(r *v1alpha1.LifecycleRule) { r.Expiration = &v1alpha1.LifecycleExpiration{Days: &days} }
}

func expireOn(date string) specModifier {
	return func(r *v1alpha1.LifecycleRule) { r.Expiration = &v1alpha1.LifecycleExpiration{Date: date} }
}

func abortAfter(days int32) specModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.AbortIncompleteMultipartUpload = &v1alpha1.AbortIncompleteMultipartUpload{DaysAfterInitiation: days}
	}
}

func delMarkersAfter(days int32) specModifier {
	return func(r *v1alpha1.LifecycleRule) { r.DelMarkerExpiration = &v1alpha1.DelMarkerExpiration{Days: days} }
}

func prefixed(p string) specModifier {
	return func(r *v1alpha1.LifecycleRule) { r.Filter = &v1alpha1.LifecycleFilter{Prefix: p} }
}

func noncurrentTo(class string, days, newer int32) specModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.NoncurrentVersionTransitions = append(r.NoncurrentVersionTransitions,
			v1alpha1.NoncurrentVersionTransition{NoncurrentDays: days, NewerNoncurrentVersions: &newer, StorageClass: class})
	}
}

func TestTranslate(t *testing.T) {
	cases := map[string]struct {
		reason string
		rules  []v1alpha1.LifecycleRule
		want   *rustfs.Lifecycle
	}{
		"NoRules": {
			reason: "No rules is no configuration.",
		},
		"Defaults": {
			reason: "Status defaults to Enabled and a rule without filter gets an empty one.",
			rules:  []v1alpha1.LifecycleRule{specRule("a", expireAfter(30))},
			want: config(rustfs.LifecycleRule{ID: "a", Status: "Enabled", Filter: &rustfs.LifecycleFilter{},
				Expiration: &rustfs.Expiration{Days: i32(30)}}),
		},
		"Dates": {
			reason: "Dates are sent as RFC 3339, which RustFS parses.",
			rules:  []v1alpha1.LifecycleRule{specRule("a", transitionOn("COLD", "2026-06-01"), expireOn("2027-01-01T00:00:00.000Z"))},
			want: config(rustfs.LifecycleRule{ID: "a", Status: "Enabled", Filter: &rustfs.LifecycleFilter{},
				Transitions: []rustfs.Transition{{Date: "2026-06-01T00:00:00Z", StorageClass: "COLD"}},
				Expiration:  &rustfs.Expiration{Date: "2027-01-01T00:00:00Z"}}),
		},
		"EveryAction": {
			reason: "Every action and the filter are carried over, Days 0 included.",
			rules: []v1alpha1.LifecycleRule{specRule("a", prefixed("logs/"), transitionTo("COLD", 0), noncurrentTo("COLD", 7, 2),
				abortAfter(1), delMarkersAfter(4), func(r *v1alpha1.LifecycleRule) {
					r.Status = v1alpha1.RuleDisabled
					r.NoncurrentVersionExpiration = &v1alpha1.NoncurrentVersionExpiration{NoncurrentDays: 30}
				})},
			want: config(rustfs.LifecycleRule{ID: "a", Status: "Disabled", Filter: &rustfs.LifecycleFilter{Prefix: str("logs/")},
				Transitions:                    []rustfs.Transition{{Days: i32(0), StorageClass: "COLD"}},
				NoncurrentVersionTransitions:   []rustfs.NoncurrentVersionTransition{{NoncurrentDays: i32(7), NewerNoncurrentVersions: i32(2), StorageClass: "COLD"}},
				NoncurrentVersionExpiration:    &rustfs.NoncurrentVersionExpiration{NoncurrentDays: i32(30)},
				AbortIncompleteMultipartUpload: &rustfs.AbortIncompleteMultipartUpload{DaysAfterInitiation: i32(1)},
				DelMarkerExpiration:            &rustfs.DelMarkerExpiration{Days: i32(4)}}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, translate(tc.rules)); diff != "" {
				t.Errorf("%s\ntranslate(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]struct {
		reason string
		rules  []v1alpha1.LifecycleRule
		want   []string // substrings, one per problem
	}{
		"Valid": {
			reason: "Real dates at midnight and storage classes pass.",
			rules:  []v1alpha1.LifecycleRule{specRule("a", transitionOn("COLD", "2026-06-01T00:00:00Z"), expireOn("2028-02-29"))},
		},
		"NotACalendarDate": {
			reason: "February 30th matches the pattern but is no date.",
			rules:  []v1alpha1.LifecycleRule{specRule("a", expireOn("2026-02-30"))},
			want:   []string{`spec.forProvider.rules[a].expiration.date: "2026-02-30" is not a calendar date; use a real date as YYYY-MM-DD`},
		},
		"TransitionAtEpoch": {
			reason: "RustFS requires a transition date after the epoch.",
			rules:  []v1alpha1.LifecycleRule{specRule("a", transitionOn("COLD", "1970-01-01"))},
			want:   []string{`spec.forProvider.rules[a].transitions[0].date: "1970-01-01" is not after 1970-01-01`},
		},
		"NotMidnight": {
			reason: "A date with a time of day is refused by RustFS.",
			rules:  []v1alpha1.LifecycleRule{specRule("a", expireOn("2026-01-01T10:00:00Z"))},
			want:   []string{"is not midnight UTC"},
		},
		"NoStorageClass": {
			reason: "A transition without a storage class cannot be put.",
			rules:  []v1alpha1.LifecycleRule{specRule("a", transitionTo("", 1), noncurrentTo("", 1, 0))},
			want: []string{"spec.forProvider.rules[a].transitions[0]: no storage class",
				"spec.forProvider.rules[a].noncurrentVersionTransitions[0]: no storage class"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := validate(tc.rules)
			if len(got) != len(tc.want) {
				t.Fatalf("%s\nvalidate(...): want %d problems, got %q", tc.reason, len(tc.want), got)
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("%s\nvalidate(...)[%d]: want it to contain %q, got %q", tc.reason, i, tc.want[i], got[i])
				}
			}
		})
	}
}
