package tenant

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// A nameCase is a composed name function, its inputs and its result.
type nameCase struct {
	reason string
	name   func(xr, entry string) string
	xr     string
	entry  string
	want   string
}

func nameCases() map[string]nameCase {
	long := strings.Repeat("a", 60)
	return map[string]nameCase{
		"UppercaseTier": {
			reason: "An uppercase tier name is lowercased without a suffix: the mapping is exact.",
			name:   TierName, xr: "tenant-a", entry: "COLD", want: "tenant-a-tier-cold",
		},
		"TierWithHyphen": {
			reason: "A hyphen is kept, so COLD-1 needs no suffix.",
			name:   TierName, xr: "tenant-a", entry: "COLD-1", want: "tenant-a-tier-cold-1",
		},
		"TierWithUnderscore": {
			reason: "An underscore becomes a hyphen plus a hash, so COLD_1 never collides with COLD-1.",
			name:   TierName, xr: "tenant-a", entry: "COLD_1", want: "tenant-a-tier-cold-1-9706e328",
		},
		"TierWithDot": {
			reason: "A dot becomes a hyphen plus a hash, so COLD.1 differs from COLD-1 and COLD_1.",
			name:   TierName, xr: "tenant-a", entry: "COLD.1", want: "tenant-a-tier-cold-1-d4302302",
		},
		"TierEndingWithHyphen": {
			reason: "A name must end with a letter or digit, so a trailing hyphen is trimmed and a hash added.",
			name:   TierName, xr: "tenant-a", entry: "COLD-", want: "tenant-a-tier-cold-d6209cba",
		},
		"Bucket": {
			reason: "A bucket name is already lowercase DNS-1123.",
			name:   BucketName, xr: "tenant-a", entry: "app-data", want: "tenant-a-bucket-app-data",
		},
		"BucketWithDot": {
			reason: "A dot in a bucket name becomes a hyphen plus a hash.",
			name:   BucketName, xr: "tenant-a", entry: "logs.example", want: "tenant-a-bucket-logs-example-b37efa3b",
		},
		"Lifecycle": {
			reason: "The BucketLifecycle of a bucket has its own prefix.",
			name:   LifecycleName, xr: "tenant-a", entry: "app-data", want: "tenant-a-lifecycle-app-data",
		},
		"TooLong": {
			reason: "A name over 63 characters is shortened and gets a hash of the full inputs.",
			name:   BucketName, xr: long, entry: "app-data", want: long[:54] + "-ccb641a3",
		},
	}
}

func TestComposedNames(t *testing.T) {
	for name, tc := range nameCases() {
		t.Run(name, func(t *testing.T) {
			got := tc.name(tc.xr, tc.entry)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if errs := validation.IsDNS1123Label(got); len(errs) > 0 {
				t.Errorf("%q is not a DNS-1123 label: %v", got, errs)
			}
		})
	}
}

func TestLongNamesStayUnique(t *testing.T) {
	xr := strings.Repeat("t", 50)
	a, b := TierName(xr, "ARCHIVE-2026-A"), TierName(xr, "ARCHIVE-2026-B")
	if a == b || len(a) > maxNameLength || len(b) > maxNameLength {
		t.Errorf("TierName(%s, ARCHIVE-2026-A/B) = %q, %q: want two different names of at most %d characters", xr, a, b, maxNameLength)
	}
}

// FuzzComposedName checks that every valid tier or bucket entry of any
// valid XR name gets a valid, bounded composed name.
func FuzzComposedName(f *testing.F) {
	f.Add("tenant-a", "COLD_1")
	f.Add("team.a-tenant", "A..B")
	f.Add(strings.Repeat("x", 253), "logs.example")
	f.Fuzz(func(t *testing.T, xr, entry string) {
		if len(validation.IsDNS1123Subdomain(xr)) > 0 || (naming.TierName(entry) != nil && naming.BucketName(entry) != nil) {
			t.Skip()
		}
		for _, n := range []string{TierName(xr, entry), BucketName(xr, entry), LifecycleName(xr, entry)} {
			if len(n) > maxNameLength || len(validation.IsDNS1123Subdomain(n)) > 0 {
				t.Errorf("composed name %q for XR %q, entry %q is not a DNS-1123 subdomain of at most %d characters", n, xr, entry, maxNameLength)
			}
		}
	})
}
