package naming

import (
	"regexp"
	"strings"
)

// A Slice is the names a namespace owns under nameScope NamespacePrefix
// (docs/multi-tenancy.md): the tiers that start with its upper-cased name
// and a '-', and the buckets that start with its name and a '-', except
// the names a namespace with a longer prefix owns (Longer).
type Slice struct {
	// TierPrefix starts every tier name of the slice.
	TierPrefix string
	// BucketPrefix starts every bucket name of the slice.
	BucketPrefix string
}

// SliceOf returns namespace ns's slice.
func SliceOf(ns string) Slice {
	return Slice{TierPrefix: strings.ToUpper(ns) + "-", BucketPrefix: ns + "-"}
}

// HasTier reports whether tier name starts with the slice's tier prefix.
func (s Slice) HasTier(name string) bool { return strings.HasPrefix(name, s.TierPrefix) }

// HasBucket reports whether bucket name starts with the slice's bucket
// prefix.
func (s Slice) HasBucket(name string) bool { return strings.HasPrefix(name, s.BucketPrefix) }

// namespaceName is a Kubernetes namespace name (an RFC 1123 label).
var namespaceName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// Longer returns the namespaces whose prefixes also start name, a tier or
// bucket name that starts with one of the slice's prefixes, and are longer
// than the slice's: every start of name, lower-cased, that ends right
// before a '-' after the slice's prefix and is a namespace name; longest
// first. The longest prefix wins: name belongs to the first of them that
// exists, and to the slice's namespace only when none does. A namespace
// "team" owns "team-a-data" only while no namespace "team-a" exists.
func (s Slice) Longer(name string) []string {
	if !s.HasBucket(name) && !s.HasTier(name) {
		return nil
	}
	lower := strings.ToLower(name)
	var out []string
	for i := len(lower) - 1; i > len(s.BucketPrefix); i-- {
		if lower[i] == '-' && namespaceName.MatchString(lower[:i]) {
			out = append(out, lower[:i])
		}
	}
	return out
}
