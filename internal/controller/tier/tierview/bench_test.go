package tierview

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// BenchmarkList measures a reader served from a fresh shared list of 1,000
// tiers, alone and with every processor reading at once.
func BenchmarkList(b *testing.B) {
	tiers := make([]rustfs.Tier, 1000)
	for i := range tiers {
		tiers[i] = tierNamed(fmt.Sprintf("TIER-%04d", i))
	}
	l := &lister{lists: [][]rustfs.Tier{tiers}}
	v := New(l.list, time.Hour)
	c := conn(endpointA, "AKADMIN")
	b.Run("Serial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.List(context.Background(), c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := v.List(context.Background(), c); err != nil {
					b.Error(err)
				}
			}
		})
	})
	if n := l.count(); n != 1 {
		b.Errorf("list requests: got %d, want 1", n)
	}
}

// BenchmarkDiff measures comparing two lists of 1,000 tiers, as each
// refresh does.
func BenchmarkDiff(b *testing.B) {
	before, after := make([]rustfs.Tier, 1000), make([]rustfs.Tier, 1000)
	for i := range before {
		before[i] = tierNamed(fmt.Sprintf("TIER-%04d", i))
		after[len(after)-1-i] = before[i]
	}
	b.ReportAllocs()
	for b.Loop() {
		if c := Diff(endpointA, before, after); len(c) != 0 {
			b.Fatalf("changes: %v", c)
		}
	}
}
