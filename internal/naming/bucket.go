package naming

import (
	"regexp"
	"slices"
	"strings"
)

// Prefixes and suffixes S3 reserves in bucket names.
var (
	ReservedBucketPrefixes = []string{"xn--", "sthree-", "amzn-s3-demo-"}
	ReservedBucketSuffixes = []string{"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"}
)

// Patterns of the bucket name rules, in RE2 syntax for Go and CEL alike.
const (
	bucketCharacters = `^[a-z0-9.-]+$`
	bucketEnds       = `^[a-z0-9](.*[a-z0-9])?$`
	// An IP-shaped name is four groups of digits: every IPv4 address RustFS
	// (s3s) refuses, and the look-alikes S3 refuses as "formatted as an IP
	// address".
	bucketIPShape = `^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$`
)

var (
	bucketCharactersRE = regexp.MustCompile(bucketCharacters)
	bucketEndsRE       = regexp.MustCompile(bucketEnds)
	bucketIPShapeRE    = regexp.MustCompile(bucketIPShape)
)

// Bucket are the S3 bucket naming rules: those RustFS enforces (s3s's
// check_bucket_name, docs/rustfs-wire.md §17.1) and the prefixes and
// suffixes S3 reserves, so that a name accepted here works on either.
var Bucket = Rules{
	Kind:      "bucket name",
	MinLength: 3,
	MaxLength: 63,
	Rules: []Rule{
		{
			CEL:     "self.matches('" + bucketCharacters + "')",
			Message: "may contain only lowercase letters, digits, '.' and '-'",
			broken:  func(n string) bool { return !bucketCharactersRE.MatchString(n) },
		},
		{
			CEL:     "self.matches('" + bucketEnds + "')",
			Message: "must begin and end with a lowercase letter or a digit",
			broken:  func(n string) bool { return !bucketEndsRE.MatchString(n) },
		},
		{
			CEL:     "!self.contains('..')",
			Message: "must not contain two adjacent periods",
			broken:  func(n string) bool { return strings.Contains(n, "..") },
		},
		{
			CEL:     "!self.matches('" + bucketIPShape + "')",
			Message: "must not be formatted as an IP address",
			broken:  bucketIPShapeRE.MatchString,
		},
		{
			CEL:     "!['xn--', 'sthree-', 'amzn-s3-demo-'].exists(p, self.startsWith(p))",
			Message: "must not start with a reserved prefix (xn--, sthree- or amzn-s3-demo-): S3 reserves them",
			broken:  func(n string) bool { return slices.ContainsFunc(ReservedBucketPrefixes, hasPrefix(n)) },
		},
		{
			CEL:     "!['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'].exists(s, self.endsWith(s))",
			Message: "must not end with a reserved suffix (-s3alias, --ol-s3, .mrap, --x-s3 or --table-s3): S3 reserves them",
			broken:  func(n string) bool { return slices.ContainsFunc(ReservedBucketSuffixes, hasSuffix(n)) },
		},
	},
}

// BucketName returns an *Error when name is not a valid bucket name.
func BucketName(name string) error { return Bucket.Check(name) }

func hasPrefix(n string) func(string) bool {
	return func(p string) bool { return strings.HasPrefix(n, p) }
}
func hasSuffix(n string) func(string) bool {
	return func(s string) bool { return strings.HasSuffix(n, s) }
}
