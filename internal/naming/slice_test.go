package naming

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSliceLonger(t *testing.T) {
	cases := map[string]struct {
		reason string
		ns     string
		name   string
		want   []string
	}{
		"NoFurtherDash": {reason: "A name with no '-' after the prefix can belong to no longer prefix.",
			ns: "team", name: "team-data"},
		"OneLonger": {reason: "Namespace team-a's prefix is longer than team's.",
			ns: "team", name: "team-a-data", want: []string{"team-a"}},
		"LongestFirst": {reason: "Every longer prefix is a candidate, the longest first.",
			ns: "team", name: "team-a-b-data", want: []string{"team-a-b", "team-a"}},
		"Tier": {reason: "Tier names are upper case; the namespaces they name are lower case.",
			ns: "team", name: "TEAM-A-COLD", want: []string{"team-a"}},
		"OwnNameIsNotLonger": {reason: "The name itself, without a '-' after it, is no prefix.",
			ns: "team", name: "team-a"},
		"DoubleDash": {reason: "A start that ends in '-' is no namespace name.",
			ns: "team", name: "team--a-data", want: []string{"team--a"}},
		"NotANamespaceName": {reason: "A start with a character namespaces cannot have is skipped.",
			ns: "team", name: "TEAM-A_B-COLD", want: nil},
		"TooLongForANamespace": {reason: "A namespace name has at most 63 characters.",
			ns: "t", name: "t-" + strings.Repeat("a", 64) + "-x"},
		"OutsideTheSlice": {reason: "A name outside the slice has no rival inside it.",
			ns: "team-a", name: "team-b-c-data"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, SliceOf(tc.ns).Longer(tc.name)); diff != "" {
				t.Errorf("%s\nSliceOf(%q).Longer(%q): -want +got:\n%s", tc.reason, tc.ns, tc.name, diff)
			}
		})
	}
}
