// Package memlimit keeps the Go runtime's soft memory limit for the
// provider: a base (--memory-limit) that its memory need not exceed, raised
// whenever the live heap needs more, so that the collector never works much
// harder than it would at GOGC=25.
//
// Without a limit the collector lets the heap grow to about twice the live
// heap (GOGC=100) before it collects. At 3,000 managed resources that is
// about 30 MiB of garbage on top of about 30 MiB that is live
// (docs/performance.md, "Memory"). A fixed limit alone would make the
// collector run without pause, up to half of the CPU, once the live heap
// grew near it; the floor keeps a quarter of the live heap as room to
// allocate in, whatever the base.
package memlimit

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// EnvVar is the Go runtime's own setting. When it is set the runtime has
// applied it at start, and Keep leaves the limit alone.
const EnvVar = "GOMEMLIMIT"

// A Sample is what the runtime reports of its memory, in bytes.
type Sample struct {
	// Live is the heap the last collection marked live.
	Live uint64
	// Mapped is the memory the limit counts: everything the runtime
	// holds from the system, less the heap pages it has returned.
	Mapped uint64
	// Free is heap memory the runtime holds but no object uses, and that
	// the collector or the scavenger can reuse or return.
	Free uint64
	// Objects is the heap memory of objects, live or not yet collected.
	Objects uint64
}

// Limit returns the soft memory limit for a base and a sample: the base, or,
// when it is larger, the memory the runtime holds besides its heap objects
// plus 1.25 times the live heap. A base of 0 or less means no limit.
func Limit(base int64, s Sample) int64 {
	if base <= 0 {
		return math.MaxInt64
	}
	var overhead uint64
	if s.Mapped > s.Free+s.Objects {
		overhead = s.Mapped - s.Free - s.Objects
	}
	floor := s.Live + s.Live/4 + overhead
	if floor > math.MaxInt64 {
		return math.MaxInt64
	}
	return max(base, int64(floor))
}

// names are the runtime/metrics Read reads, in the order of read's switch.
var names = []string{
	"/gc/heap/live:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/objects:bytes",
}

// Read returns the runtime's current Sample.
func Read() Sample {
	m := make([]metrics.Sample, len(names))
	for i, n := range names {
		m[i].Name = n
	}
	metrics.Read(m)
	v := func(i int) uint64 {
		if m[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return m[i].Value.Uint64()
	}
	var s Sample
	s.Live, s.Free, s.Objects = v(0), v(3), v(4)
	if total, released := v(1), v(2); total > released {
		s.Mapped = total - released
	}
	return s
}

// Keep sets the runtime's soft memory limit to Limit(base, Read()) now and
// at every tick of every until ctx is done, and returns whether it does:
// it does nothing when base is 0 or less, or when GOMEMLIMIT is set in the
// environment (the runtime's own setting wins).
func Keep(ctx context.Context, base int64, every time.Duration) bool {
	if base <= 0 || os.Getenv(EnvVar) != "" {
		return false
	}
	debug.SetMemoryLimit(Limit(base, Read()))
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				debug.SetMemoryLimit(Limit(base, Read()))
			}
		}
	}()
	return true
}
