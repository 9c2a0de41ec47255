package custody

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A verdict is what TestDecide compares of a Verdict.
type verdict struct {
	reason   xpv2.ConditionReason
	eligible bool
	acquired v1alpha1.Acquisition
	adopt    bool
}

type decideCase struct {
	reason   string
	self     *v1alpha1.Tier
	exists   bool
	adoption v1alpha1.AdoptionPolicy
	refusal  *Refusal
	peers    []*v1alpha1.Tier
	want     verdict
}

func TestDecide(t *testing.T) { runDecide(t, decideCases()) }

func runDecide(t *testing.T, cases map[string]decideCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := Object{Kind: "Tier", Noun: `tier "COLD"`, Field: "spec.forProvider.name", Exists: tc.exists, Duplicate: v1alpha1.ReasonDuplicateTier}
			v := Decide(tc.self, Record(tc.self), o, tc.adoption, tc.refusal, subjects(tc.peers...))
			got := verdict{eligible: v.Record.Eligible, acquired: v.Record.Acquired, adopt: v.Adopt}
			if v.Refusal != nil {
				got.reason = v.Refusal.Reason
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(verdict{})); diff != "" {
				t.Errorf("%s\nDecide(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func decideCases() map[string]decideCase {
	kindRefusal := &Refusal{Reason: v1alpha1.ReasonBucketManagedElsewhere, Message: "managed elsewhere"}
	type want = verdict
	return map[string]decideCase{
		"CreateAlone": {
			reason: "A missing object may be created under either policy.",
			self:   peer("b", "self", 0), adoption: v1alpha1.AdoptionNever,
			want: want{eligible: true},
		},
		"AdoptAutomatic": {
			reason: "An existing object without a record is adopted under Automatic, and the record says so.",
			self:   peer("b", "self", 0), exists: true, adoption: v1alpha1.AdoptionAutomatic,
			want: want{eligible: true, acquired: v1alpha1.AcquiredAdopted, adopt: true},
		},
		"AdoptNever": {
			reason: "Under Never an existing object without a record is refused, and the resource is not eligible.",
			self:   peer("b", "self", 0), exists: true, adoption: v1alpha1.AdoptionNever,
			want: want{reason: v1alpha1.ReasonAdoptionNotAllowed},
		},
		"RecordSurvivesNever": {
			reason: "A record made before the policy changed to Never stays valid.",
			self:   peer("b", "self", 0, acquired(v1alpha1.AcquiredAdopted)), exists: true, adoption: v1alpha1.AdoptionNever,
			want: want{eligible: true, acquired: v1alpha1.AcquiredAdopted},
		},
		"KindRefusalFirst": {
			reason: "The kind's own refusal wins over ownership and adoption, and makes the resource ineligible.",
			self:   peer("b", "self", time.Hour), exists: true, adoption: v1alpha1.AdoptionNever, refusal: kindRefusal,
			peers: []*v1alpha1.Tier{peer("a", "old", 0)},
			want:  want{reason: v1alpha1.ReasonBucketManagedElsewhere},
		},
		"Duplicate": {
			reason: "An eligible resource that is not the oldest candidate is a duplicate, and stays eligible to take over.",
			self:   peer("b", "self", time.Hour), exists: true, adoption: v1alpha1.AdoptionAutomatic,
			peers: []*v1alpha1.Tier{peer("a", "old", 0)},
			want:  want{reason: v1alpha1.ReasonDuplicateTier, eligible: true},
		},
		"IneligibleOlderPeer": {
			reason: "An older peer that adoption refuses does not block an eligible younger one.",
			self:   peer("b", "self", time.Hour), exists: true, adoption: v1alpha1.AdoptionAutomatic,
			peers: []*v1alpha1.Tier{peer("a", "old", 0, ineligible)},
			want:  want{eligible: true, acquired: v1alpha1.AcquiredAdopted, adopt: true},
		},
	}
}

func acquired(a v1alpha1.Acquisition) peerModifier {
	return func(t *v1alpha1.Tier) { t.Status.Custody.Acquired = a }
}

// A duplicate's message names the owner only when it is in the same
// namespace.
func TestDuplicateMessage(t *testing.T) {
	o := Object{Kind: "Tier", Noun: `tier "COLD"`, Field: "spec.forProvider.name", Duplicate: v1alpha1.ReasonDuplicateTier}
	cases := map[string]struct {
		reason    string
		owner     *v1alpha1.Tier
		contains  string
		forbidden []string
	}{
		"OtherNamespace": {reason: "Another namespace's owner is not named.", owner: peer("team-a", "cold-a", 0),
			contains: "A resource in another namespace", forbidden: []string{"team-a", "cold-a"}},
		"SameNamespace": {reason: "An owner in the same namespace is named, to merge or delete.", owner: peer("team-b", "cold-old", 0),
			contains: "Tier cold-old"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			self := peer("team-b", "self", time.Hour)
			v := Decide(self, Record(self), o, v1alpha1.AdoptionAutomatic, nil, subjects(tc.owner))
			if v.Refusal == nil {
				t.Fatalf("%s\nDecide(...): want a duplicate, got none", tc.reason)
			}
			if !strings.Contains(v.Refusal.Message, tc.contains) {
				t.Errorf("%s\nmessage %q does not contain %q", tc.reason, v.Refusal.Message, tc.contains)
			}
			for _, f := range tc.forbidden {
				if strings.Contains(v.Refusal.Message, f) {
					t.Errorf("%s\nmessage %q names %q", tc.reason, v.Refusal.Message, f)
				}
			}
		})
	}
}
