package tenant

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/crossplane/function-sdk-go/resource"
)

// maxNameLength is the longest composed metadata.name the function renders:
// a DNS-1123 label, so names also fit label values and printer columns.
const maxNameLength = 63

// hashLength is the number of hex digits of the suffix that keeps a
// shortened or lossy name unique.
const hashLength = 8

// Kinds of composed resources, as they appear in names and resource keys.
const (
	partTier      = "tier"
	partBucket    = "bucket"
	partLifecycle = "lifecycle"
)

// TierName is the metadata.name of the Tier composed for the tier entry
// named tier: <xr>-tier-<DNS-1123 form of tier>. It depends only on the XR
// name and the entry name, never on the entry's position.
func TierName(xr, tier string) string { return composedName(xr, partTier, tier) }

// BucketName is the metadata.name of the Bucket composed for bucket.
func BucketName(xr, bucket string) string { return composedName(xr, partBucket, bucket) }

// LifecycleName is the metadata.name of the BucketLifecycle composed for
// bucket.
func LifecycleName(xr, bucket string) string { return composedName(xr, partLifecycle, bucket) }

// resourceKey is the composition resource name (the key of the desired
// composed resources) of an entry: its kind and its entry name.
func resourceKey(part, entry string) resource.Name {
	return resource.Name(part + "-" + entry)
}

// composedName joins the XR name, the kind and the DNS-1123 form of the
// entry name. A short hash of the exact inputs is appended when the
// DNS-1123 form loses information (so COLD_1 and COLD-1 differ) or when the
// name must be shortened to maxNameLength.
func composedName(xr, part, entry string) string {
	form, lossless := dns1123(entry)
	name := xr + "-" + part + "-" + form
	if lossless && len(name) <= maxNameLength {
		return name
	}
	sum := sha256.Sum256([]byte(xr + "\x00" + part + "\x00" + entry))
	suffix := "-" + hex.EncodeToString(sum[:])[:hashLength]
	if len(name) > maxNameLength-len(suffix) {
		name = name[:maxNameLength-len(suffix)]
	}
	return strings.TrimRight(name, "-.") + suffix
}

// dns1123 lowercases s and replaces every character outside a-z, A-Z, 0-9
// and '-' with '-'. It reports whether the result identifies s exactly and
// is usable as the end of a name: it is not when a character was replaced
// or when it does not end with a letter or digit. Lowercasing alone keeps
// names apart because the entries of one kind are all uppercase (tiers) or
// all lowercase (buckets).
func dns1123(s string) (string, bool) {
	var b strings.Builder
	lossless := true
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r - 'A' + 'a')
		default:
			b.WriteByte('-')
			lossless = false
		}
	}
	out := b.String()
	if out == "" || !isAlnum(out[len(out)-1]) {
		lossless = false
	}
	return out, lossless
}

// isAlnum reports whether c is a lowercase letter or a digit.
func isAlnum(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') }
