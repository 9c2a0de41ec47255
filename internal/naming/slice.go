package naming

import "strings"

// A Slice is the names a namespace owns under nameScope NamespacePrefix
// (docs/multi-tenancy.md): the tiers that start with its upper-cased name
// and a '-', and the buckets that start with its name and a '-'.
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

// HasTier reports whether tier name is in the slice.
func (s Slice) HasTier(name string) bool { return strings.HasPrefix(name, s.TierPrefix) }

// HasBucket reports whether bucket name is in the slice.
func (s Slice) HasBucket(name string) bool { return strings.HasPrefix(name, s.BucketPrefix) }
