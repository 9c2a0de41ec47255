package profiling

import (
	"runtime"
	"testing"
)

// Importing the package turns heap profiling off; Heap turns it back on at
// the rate the runtime started with.
func TestHeap(t *testing.T) {
	if runtime.MemProfileRate != 0 {
		t.Fatalf("MemProfileRate after init = %d, want 0", runtime.MemProfileRate)
	}
	if startRate <= 0 {
		t.Fatalf("the runtime's start rate = %d, want Go's default or GODEBUG's", startRate)
	}
	Heap()
	if runtime.MemProfileRate != startRate {
		t.Errorf("MemProfileRate after Heap = %d, want %d", runtime.MemProfileRate, startRate)
	}
}
