package bucket

import (
	"fmt"
	"net"
	"strings"
)

// Prefixes and suffixes S3 reserves in bucket names.
var (
	reservedPrefixes = []string{"xn--", "sthree-", "amzn-s3-demo-"}
	reservedSuffixes = []string{"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"}
)

// nameRules are the S3 bucket naming rules, in the order they are checked.
var nameRules = []func(string) string{checkLength, checkCharacters, checkShape, checkReserved}

// checkName returns the first S3 bucket naming rule name breaks, or "" when
// it follows them all: 3 to 63 characters; only lowercase letters, digits,
// '.' and '-'; a letter or digit first and last; no ".."; not an IP
// address; none of the reserved prefixes and suffixes.
func checkName(name string) string {
	for _, rule := range nameRules {
		if broken := rule(name); broken != "" {
			return broken
		}
	}
	return ""
}

func checkLength(name string) string {
	if n := len(name); n < 3 || n > 63 {
		return fmt.Sprintf("it must be 3 to 63 characters long, not %d", n)
	}
	return ""
}

func checkCharacters(name string) string {
	for _, r := range name {
		if !alnum(r) && r != '.' && r != '-' {
			return fmt.Sprintf("it may contain only lowercase letters, digits, '.' and '-', not %q", r)
		}
	}
	return ""
}

func checkShape(name string) string {
	switch {
	case !alnum(rune(name[0])) || !alnum(rune(name[len(name)-1])):
		return "it must begin and end with a lowercase letter or a digit"
	case strings.Contains(name, ".."):
		return "it must not contain two adjacent periods"
	case net.ParseIP(name) != nil:
		return "it must not be formatted as an IP address"
	}
	return ""
}

func checkReserved(name string) string {
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(name, p) {
			return fmt.Sprintf("it must not start with the reserved prefix %q", p)
		}
	}
	for _, s := range reservedSuffixes {
		if strings.HasSuffix(name, s) {
			return fmt.Sprintf("it must not end with the reserved suffix %q", s)
		}
	}
	return ""
}

func alnum(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
