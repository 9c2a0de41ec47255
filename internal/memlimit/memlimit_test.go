package memlimit

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const mib = 1 << 20

// limitCases are TestLimit's cases.
var limitCases = map[string]struct {
	reason string
	base   int64
	sample Sample
	want   int64
}{
	"NoBase": {
		reason: "A base of 0 turns the limit off.",
		base:   0,
		sample: Sample{Live: 10 * mib, Mapped: 30 * mib, Objects: 15 * mib},
		want:   math.MaxInt64,
	},
	"NegativeBase": {
		reason: "A negative base turns the limit off too.",
		base:   -1,
		want:   math.MaxInt64,
	},
	"SmallHeap": {
		reason: "While 1.25 times the live heap and the runtime's other memory fit under the base, the base is the limit.",
		base:   48 * mib,
		sample: Sample{Live: 20 * mib, Mapped: 40 * mib, Free: 5 * mib, Objects: 25 * mib},
		want:   48 * mib,
	},
	"LargeHeap": {
		reason: "A live heap that needs more than the base raises the limit to 1.25 times it plus the memory besides heap objects (here 10 MiB), so that the collector keeps room to allocate in.",
		base:   48 * mib,
		sample: Sample{Live: 80 * mib, Mapped: 120 * mib, Free: 20 * mib, Objects: 90 * mib},
		want:   100*mib + 10*mib,
	},
	"MappedBelowHeap": {
		reason: "Samples are read one metric at a time; a Mapped below Free and Objects counts as no other memory.",
		base:   mib,
		sample: Sample{Live: 8 * mib, Mapped: 9 * mib, Free: 2 * mib, Objects: 8 * mib},
		want:   10 * mib,
	},
	"Overflow": {
		reason: "A floor beyond int64 is no limit.",
		base:   mib,
		sample: Sample{Live: math.MaxUint64 / 2},
		want:   math.MaxInt64,
	},
}

func TestLimit(t *testing.T) {
	for name, tc := range limitCases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Limit(tc.base, tc.sample)); diff != "" {
				t.Errorf("%s\nLimit(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// keep runs Keep with GOMEMLIMIT as env and restores the runtime's limit.
func keep(t *testing.T, env string, base int64) (kept bool, limit int64) {
	t.Helper()
	t.Setenv(EnvVar, env)
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	kept = Keep(ctx, base, time.Hour)
	return kept, debug.SetMemoryLimit(-1)
}

func TestKeepSetsTheRuntimesLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	cases := map[string]struct {
		reason   string
		env      string
		base     int64
		wantKept bool
		want     int64
	}{
		"Base": {
			reason:   "A base far above the live heap is the runtime's limit.",
			base:     1 << 40,
			wantKept: true,
			want:     1 << 40,
		},
		"Off": {
			reason: "A base of 0 leaves the runtime's limit as it was.",
			base:   0,
			want:   before,
		},
		"GOMEMLIMIT": {
			reason: "GOMEMLIMIT in the environment wins: the runtime's limit stays as it was.",
			env:    "1GiB",
			base:   1 << 40,
			want:   before,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kept, got := keep(t, tc.env, tc.base)
			if kept != tc.wantKept {
				t.Errorf("%s\nKeep(...): want %t, got %t", tc.reason, tc.wantKept, kept)
			}
			if got != tc.want {
				t.Errorf("%s\nthe runtime's limit: want %d, got %d", tc.reason, tc.want, got)
			}
		})
	}
}

// TestKeepRisesAboveTheLiveHeap keeps 64 MiB live under a base of 1 MiB: the
// limit Keep sets must leave the collector room above the live heap.
func TestKeepRisesAboveTheLiveHeap(t *testing.T) {
	live := make([]byte, 64*mib)
	for i := range live {
		live[i] = byte(i)
	}
	runtime.GC()
	kept, got := keep(t, "", mib)
	runtime.KeepAlive(live)
	if !kept {
		t.Fatal("Keep(ctx, 1 MiB, ...): want true, got false")
	}
	if want := int64(80 * mib); got < want {
		t.Errorf("the runtime's limit with 64 MiB live: want at least %d (1.25 × 64 MiB), got %d", want, got)
	}
}
