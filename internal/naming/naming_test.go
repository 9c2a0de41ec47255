package naming

import (
	"strings"
	"testing"
)

// A Case is a name and a fragment of the first rule it breaks; "" for a
// valid name. The tests of the rules' copies (agreement_test.go) use the
// same cases.
type Case struct {
	Reason string
	Name   string
	Want   string
}

// TierCases are the tier names every copy of the rules is checked with.
var TierCases = map[string]Case{
	"Plain":           {Reason: "Upper case letters are valid.", Name: "COLD"},
	"AllCharacters":   {Reason: "Digits, '_', '-' and '.' are valid.", Name: "TIER_1-A.B"},
	"MaxLength":       {Reason: "64 characters are allowed.", Name: strings.Repeat("A", 64)},
	"GlacierAllowed":  {Reason: "Only STANDARD and REDUCED_REDUNDANCY are reserved.", Name: "GLACIER"},
	"DotsInside":      {Reason: "Dots are path navigation only on their own.", Name: "A..B"},
	"Empty":           {Reason: "An empty name is refused.", Name: "", Want: "1 to 64"},
	"TooLong":         {Reason: "65 characters are too many.", Name: strings.Repeat("A", 65), Want: "1 to 64"},
	"Lowercase":       {Reason: "RustFS requires upper case.", Name: "Cold", Want: "uppercase"},
	"UnicodeLower":    {Reason: "RustFS upper-cases with Unicode rules.", Name: "É", Want: "only A-Z"},
	"UnicodeLowerToo": {Reason: "A lower-case non-ASCII letter breaks the upper-case rule.", Name: "COLDé", Want: "only A-Z"},
	"UnicodeUpper":    {Reason: "RustFS adds ÄRCHIV, but edit and remove would not find it percent-encoded (docs/rustfs-wire.md §3.4).", Name: "ÄRCHIV", Want: "only A-Z"},
	"Space":           {Reason: "A space needs percent-encoding.", Name: "A B", Want: "only A-Z"},
	"Slash":           {Reason: "A '/' splits the URL path.", Name: "A/B", Want: "only A-Z"},
	"Percent":         {Reason: "A '%' would be decoded differently.", Name: "A%20", Want: "only A-Z"},
	"Dot":             {Reason: "'.' is path navigation.", Name: ".", Want: "'.' or '..'"},
	"DotDot":          {Reason: "'..' is path navigation.", Name: "..", Want: "'.' or '..'"},
	"Standard":        {Reason: "STANDARD is reserved.", Name: "STANDARD", Want: "reserves"},
	"ReducedLower":    {Reason: "Reserved names are refused in any case; lower case first breaks the characters.", Name: "reduced_redundancy", Want: "uppercase"},
	"ReducedUpper":    {Reason: "REDUCED_REDUNDANCY is reserved.", Name: "REDUCED_REDUNDANCY", Want: "reserves"},
}

// BucketCases are the bucket names every copy of the rules is checked
// with.
var BucketCases = map[string]Case{
	"Valid":           {Reason: "Lowercase letters, digits, dots and hyphens are valid.", Name: "app-data.v2"},
	"Shortest":        {Reason: "Three characters are enough.", Name: "abc"},
	"Longest":         {Reason: "63 characters are allowed.", Name: strings.Repeat("a", 63)},
	"DigitFirst":      {Reason: "A digit may begin a name.", Name: "0abc"},
	"ThreeNumbers":    {Reason: "Three groups of digits are not IP-shaped.", Name: "1.2.3"},
	"FiveNumbers":     {Reason: "Five groups of digits are not IP-shaped.", Name: "1.2.3.4.5"},
	"XNInside":        {Reason: "Only a leading xn-- is reserved.", Name: "app-xn--a"},
	"TooShort":        {Reason: "Names have at least 3 characters.", Name: "ab", Want: "3 to 63 characters long"},
	"TooLong":         {Reason: "Names have at most 63 characters.", Name: strings.Repeat("a", 64), Want: "3 to 63 characters long"},
	"Uppercase":       {Reason: "Uppercase letters are not allowed.", Name: "App-data", Want: "lowercase letters"},
	"Underscore":      {Reason: "Underscores are not allowed.", Name: "app_data", Want: "lowercase letters"},
	"LeadingHyphen":   {Reason: "Names begin with a letter or digit.", Name: "-app", Want: "begin and end"},
	"TrailingPeriod":  {Reason: "Names end with a letter or digit.", Name: "app.", Want: "begin and end"},
	"AdjacentDots":    {Reason: "Two adjacent periods are not allowed.", Name: "app..data", Want: "two adjacent periods"},
	"IPAddress":       {Reason: "Names formatted as IP addresses are not allowed.", Name: "192.168.5.4", Want: "IP address"},
	"IPShaped":        {Reason: "Four groups of digits look like an IP address, valid or not.", Name: "999.1.1.1", Want: "IP address"},
	"XNPrefix":        {Reason: "xn-- is reserved.", Name: "xn--app", Want: "reserved prefix"},
	"SthreePrefix":    {Reason: "sthree- is reserved.", Name: "sthree-app", Want: "reserved prefix"},
	"DemoPrefix":      {Reason: "amzn-s3-demo- is reserved.", Name: "amzn-s3-demo-app", Want: "reserved prefix"},
	"AliasSuffix":     {Reason: "-s3alias is reserved.", Name: "app-s3alias", Want: "reserved suffix"},
	"OLSuffix":        {Reason: "--ol-s3 is reserved.", Name: "app--ol-s3", Want: "reserved suffix"},
	"MRAPSuffix":      {Reason: ".mrap is reserved.", Name: "app.mrap", Want: "reserved suffix"},
	"DirectorySuffix": {Reason: "--x-s3 is reserved.", Name: "app--x-s3", Want: "reserved suffix"},
	"TableSuffix":     {Reason: "--table-s3 is reserved.", Name: "app--table-s3", Want: "reserved suffix"},
}

func TestValidators(t *testing.T) {
	for kind, v := range map[string]struct {
		check func(string) error
		cases map[string]Case
	}{"Tier": {TierName, TierCases}, "Bucket": {BucketName, BucketCases}} {
		for name, tc := range v.cases {
			t.Run(kind+"/"+name, func(t *testing.T) {
				err := v.check(tc.Name)
				if (err == nil) != (tc.Want == "") || err != nil && !strings.Contains(err.Error(), tc.Want) {
					t.Errorf("%s\n(%q): got %v, want an error containing %q", tc.Reason, tc.Name, err, tc.Want)
				}
			})
		}
	}
}

func TestErrorNamesTheNameAndTheRule(t *testing.T) {
	err := BucketName("app..data")
	want := `"app..data" is not a valid bucket name: it must not contain two adjacent periods`
	if err == nil || err.Error() != want {
		t.Errorf("BucketName(app..data): got %v, want %s", err, want)
	}
}

func TestSlice(t *testing.T) {
	s := SliceOf("team-a")
	cases := map[string]struct {
		Reason string
		in     bool
		want   bool
	}{
		"TierInSlice":     {Reason: "A tier with the upper-cased prefix is in the slice.", in: s.HasTier("TEAM-A-COLD"), want: true},
		"TierOfOther":     {Reason: "Another namespace's tier is not.", in: s.HasTier("TEAM-B-COLD")},
		"TierNoSeparator": {Reason: "The prefix ends with '-'.", in: s.HasTier("TEAM-ACOLD")},
		"BucketInSlice":   {Reason: "A bucket with the prefix is in the slice.", in: s.HasBucket("team-a-data"), want: true},
		"BucketIsNS":      {Reason: "The namespace's own name is not in its slice.", in: s.HasBucket("team-a")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.in != tc.want {
				t.Errorf("%s\ngot %t, want %t", tc.Reason, tc.in, tc.want)
			}
		})
	}
}

// BenchmarkTierName checks a tier name, as every Tier Observe and write
// does.
func BenchmarkTierName(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := TierName("TENANT-0007"); err != nil {
			b.Fatal(err)
		}
	}
}
