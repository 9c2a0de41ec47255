package bucket

import (
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	cases := map[string]struct {
		reason string
		name   string
		want   string // a substring of the broken rule; "" means valid
	}{
		"Valid":          {reason: "Lowercase letters, digits, dots and hyphens are valid.", name: "app-data.v2"},
		"Shortest":       {reason: "Three characters are enough.", name: "abc"},
		"TooShort":       {reason: "Names have at least 3 characters.", name: "ab", want: "3 to 63 characters long, not 2"},
		"TooLong":        {reason: "Names have at most 63 characters.", name: strings.Repeat("a", 64), want: "3 to 63 characters long, not 64"},
		"Uppercase":      {reason: "Uppercase letters are not allowed.", name: "App-data", want: "not 'A'"},
		"Underscore":     {reason: "Underscores are not allowed.", name: "app_data", want: "not '_'"},
		"LeadingHyphen":  {reason: "Names begin with a letter or digit.", name: "-app", want: "begin and end"},
		"TrailingPeriod": {reason: "Names end with a letter or digit.", name: "app.", want: "begin and end"},
		"AdjacentDots":   {reason: "Two adjacent periods are not allowed.", name: "app..data", want: "two adjacent periods"},
		"IPAddress":      {reason: "Names formatted as IP addresses are not allowed.", name: "192.168.5.4", want: "IP address"},
		"XNPrefix":       {reason: "xn-- is reserved.", name: "xn--app", want: `prefix "xn--"`},
		"SthreePrefix":   {reason: "sthree- is reserved.", name: "sthree-app", want: `prefix "sthree-"`},
		"AliasSuffix":    {reason: "-s3alias is reserved.", name: "app-s3alias", want: `suffix "-s3alias"`},
		"OLSuffix":       {reason: "--ol-s3 is reserved.", name: "app--ol-s3", want: `suffix "--ol-s3"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := checkName(tc.name)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("%s\ncheckName(%q): want %q, got %q", tc.reason, tc.name, tc.want, got)
			}
		})
	}
}
