package tierview

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// result is what one List returned.
type result struct {
	tiers []rustfs.Tier
	err   error
}

// bound is how long a test waits for another goroutine before it fails
// instead of hanging.
const bound = 30 * time.Second

// waitFor polls cond until it holds; the test fails if it does not within
// bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, bound)
		}
		time.Sleep(time.Millisecond)
	}
}

// receive returns the next value of ch; the test fails if none arrives
// within bound.
func receive[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(bound):
		t.Fatalf("%s: nothing within %s", what, bound)
		var zero T
		return zero
	}
}

// listAsync starts a List and returns where its result arrives. It waits
// until the View counts the reader, so that the order of readers is the
// order of calls.
func listAsync(t *testing.T, ctx context.Context, v *View, c string, joined func() bool) <-chan result {
	t.Helper()
	out := make(chan result, 1)
	go func() {
		tiers, err := v.List(ctx, conn(endpointA, c))
		out <- result{tiers, err}
	}()
	waitFor(t, "the List joins the View", joined)
	return out
}

func TestConcurrentReadersWaitForOneRequest(t *testing.T) {
	cold := []rustfs.Tier{tierNamed("COLD")}
	l := &lister{lists: [][]rustfs.Tier{cold}, gate: make(chan struct{})}
	v := New(l.list, time.Minute)
	var wg sync.WaitGroup
	results := make([]result, 50)
	for i := range results {
		wg.Go(func() {
			tiers, err := v.List(context.Background(), conn(endpointA, "AKADMIN"))
			results[i] = result{tiers, err}
		})
	}
	waitFor(t, "the first list request arrives", l.arrivedN(1))
	close(l.gate)
	wg.Wait()
	if n := l.count(); n != 1 {
		t.Errorf("list requests for 50 concurrent readers: got %d, want 1", n)
	}
	for i, r := range results {
		if r.err != nil || !cmp.Equal(r.tiers, cold) {
			t.Errorf("reader %d: got %v, %v; want the one list", i, r.tiers, r.err)
		}
	}
}

func TestWriteDuringRequestStartsAnotherForLaterReaders(t *testing.T) {
	before, after := []rustfs.Tier{tierNamed("COLD")}, []rustfs.Tier{tierNamed("COLD"), tierNamed("WARM")}
	l := &lister{lists: [][]rustfs.Tier{before, after}, gates: []chan struct{}{make(chan struct{}), make(chan struct{})}}
	v := New(l.list, time.Minute)
	c := conn(endpointA, "AKADMIN")

	early := listAsync(t, context.Background(), v, "AKADMIN", l.arrivedN(1))
	v.Invalidate(c)
	late := listAsync(t, context.Background(), v, "AKADMIN", l.arrivedN(2))
	// The newer request answers first: the older answer, arriving
	// later, must not replace its list.
	close(l.gates[1])
	if r := receive(t, "the late List", late); !cmp.Equal(r.tiers, after) {
		t.Errorf("a reader after the write: got %v, want a list requested after it", r.tiers)
	}
	close(l.gates[0])

	if r := receive(t, "the early List", early); !cmp.Equal(r.tiers, before) {
		t.Errorf("a reader that joined before the write: got %v, want the list requested before it", r.tiers)
	}
	got, _ := v.List(context.Background(), c)
	if !cmp.Equal(got, after) || l.count() != 2 {
		t.Errorf("stored list %v after %d requests; want the newer list after 2", got, l.count())
	}
}

func TestCancelledReaderDoesNotFailTheOthers(t *testing.T) {
	cold := []rustfs.Tier{tierNamed("COLD")}
	l := &lister{lists: [][]rustfs.Tier{cold}, gate: make(chan struct{})}
	v := New(l.list, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	first := listAsync(t, ctx, v, "AKADMIN", l.arrivedN(1))
	second := listAsync(t, context.Background(), v, "AKADMIN", func() bool { return true })
	cancel()
	if r := receive(t, "the cancelled List", first); !cmp.Equal(r.err, context.Canceled, cmpopts.EquateErrors()) {
		t.Errorf("the cancelled reader that started the request: got %v, want context.Canceled", r.err)
	}
	close(l.gate)
	if r := receive(t, "the second List", second); r.err != nil || !cmp.Equal(r.tiers, cold) {
		t.Errorf("the other reader: got %v, %v; want the list", r.tiers, r.err)
	}
}

func TestTimeoutBoundsTheRequest(t *testing.T) {
	l := &lister{gate: make(chan struct{})}
	v := New(l.list, time.Minute, WithTimeout(10*time.Millisecond))
	_, err := v.List(context.Background(), conn(endpointA, "AKADMIN"))
	if !cmp.Equal(err, context.DeadlineExceeded, cmpopts.EquateErrors()) {
		t.Errorf("a request that never answers: got %v, want context.DeadlineExceeded", err)
	}
}
