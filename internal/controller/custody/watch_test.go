package custody

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
