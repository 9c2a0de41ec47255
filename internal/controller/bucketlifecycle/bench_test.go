package bucketlifecycle

import (
	"fmt"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// realistic returns a configuration of n rules such as a tenant uses: a
// prefix, a transition to a tier, a noncurrent transition and expiration,
// an expiration and an abort of stale uploads. serverForm renders it as
// RustFS returns it: rules in reverse order, dates as .000Z, legacy-free.
func realistic(n int, serverForm bool) *rustfs.Lifecycle {
	l := &rustfs.Lifecycle{Rules: make([]rustfs.LifecycleRule, n)}
	date := "2027-01-01"
	if serverForm {
		date = "2027-01-01T00:00:00.000Z"
	}
	for i := range l.Rules {
		r := rustfs.LifecycleRule{
			ID: fmt.Sprintf("rule-%04d", i), Status: "Enabled",
			Filter:                         &rustfs.LifecycleFilter{Prefix: str(fmt.Sprintf("tenant-%d/", i))},
			Transitions:                    []rustfs.Transition{{Days: i32(30), StorageClass: "COLD"}, {Date: date, StorageClass: "ARCHIVE"}},
			NoncurrentVersionTransitions:   []rustfs.NoncurrentVersionTransition{{NoncurrentDays: i32(7), StorageClass: "COLD"}},
			NoncurrentVersionExpiration:    &rustfs.NoncurrentVersionExpiration{NoncurrentDays: i32(90), NewerNoncurrentVersions: i32(3)},
			Expiration:                     &rustfs.Expiration{Days: i32(365)},
			AbortIncompleteMultipartUpload: &rustfs.AbortIncompleteMultipartUpload{DaysAfterInitiation: i32(7)},
		}
		j := i
		if serverForm {
			j = n - 1 - i
		}
		l.Rules[j] = r
	}
	return l
}

func BenchmarkNormalize(b *testing.B) {
	for _, n := range []int{10, 1000} {
		l := realistic(n, true)
		b.Run(fmt.Sprintf("Rules%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = normalize(l)
			}
		})
	}
}

func BenchmarkCompare(b *testing.B) {
	for _, n := range []int{10, 1000} {
		desired, live := realistic(n, false), realistic(n, true)
		if d := compare(desired, live); len(d) > 0 {
			b.Fatalf("the fixtures differ: %q", d)
		}
		b.Run(fmt.Sprintf("Rules%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = compare(desired, live)
			}
		})
	}
}

func BenchmarkHash(b *testing.B) {
	for _, n := range []int{10, 1000} {
		l := realistic(n, true)
		b.Run(fmt.Sprintf("Rules%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = hash(l)
			}
		})
	}
}
