// Package profiling keeps the Go runtime's heap profiling off unless a
// pprof endpoint will serve it. The runtime samples an allocation in every
// 512 KiB by default and keeps a hash table and the stack of each sampled
// site for the life of the process: about 2 MiB resident in the provider,
// counted in the soft memory limit (docs/performance.md, "Heap profiling
// off by default (v0.3)").
//
// Its init sets runtime.MemProfileRate to 0. Packages are initialized in
// the order of their import paths where imports allow, and this one imports
// only the runtime, so it runs before the packages that allocate the most
// at start (client-go, the API types). A program that imports it calls
// Heap when it serves /debug/pprof.
package profiling

import "runtime"

// startRate is the rate the runtime started with: Go's default, or the one
// GODEBUG=memprofilerate set.
var startRate = runtime.MemProfileRate

func init() {
	runtime.MemProfileRate = 0
}

// Heap turns heap profiling on at the rate the runtime started with. The
// heap profile then holds the allocations sampled from this call on.
func Heap() {
	runtime.MemProfileRate = startRate
}
