package main

import (
	"fmt"
	"strings"
	"time"
)

// A requestCount is what one RustFS emulator served in a phase: its
// requests by route, its writes, and how long it counted.
type requestCount struct {
	routes map[string]int
	writes int
	window time.Duration // from the counters' reset to their reading
}

// requestKind groups an emulator route (rustfstest's "group.verb" names)
// into what a reader of the report asks about: each tier admin call on its
// own (list, add, edit, verify, stats), the IAM and service-account calls
// together, and every other group whole (bucket, lifecycle, object …).
func requestKind(route string) string {
	group, _, _ := strings.Cut(route, ".")
	switch group {
	case "tier":
		return route
	case "iam", "sa":
		return "iam"
	}
	return group
}

// byKind adds the counts of routes by requestKind.
func byKind(routes map[string]int) map[string]int {
	out := map[string]int{}
	for route, n := range routes {
		if n > 0 {
			out[requestKind(route)] += n
		}
	}
	return out
}

// total adds the counts.
func total(counts map[string]int) int {
	n := 0
	for _, v := range counts {
		n += v
	}
	return n
}

// String renders "T requests, R per second: kind=n, …; W writes", the
// kinds sorted.
func (c requestCount) String() string {
	n := total(c.routes)
	perSecond := 0.0
	if c.window > 0 {
		perSecond = float64(n) / c.window.Seconds()
	}
	return fmt.Sprintf("%d requests, %.1f per second: %s; %d writes", n, perSecond, routes(byKind(c.routes)), c.writes)
}
