package e2e

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// modes are the RustFS releases the fault scenarios run against.
var modes = []rustfstest.Mode{rustfstest.ModeRC, rustfstest.ModeGA}

// lostAnswers are the ways a write's answer is lost after RustFS applied
// it: the connection reset, the answer cut off, or an error status.
var lostAnswers = map[string]rustfstest.Loss{
	"Reset":     rustfstest.LossReset,
	"Truncated": rustfstest.LossTruncated,
	"Status":    rustfstest.LossStatus,
}

// A history is every value a piece of the emulator's state took, sampled
// every few milliseconds from when it is started until the test ends, with
// repeats collapsed: it shows whether a value ever came back.
type history struct {
	mu     sync.Mutex
	values []string
}

// record samples read until the test ends.
func record(t *testing.T, read func() string) *history {
	h := &history{}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			h.add(read())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
	return h
}

func (h *history) add(v string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.values); n == 0 || h.values[n-1] != v {
		h.values = append(h.values, v)
	}
}

// Values returns the values so far.
func (h *history) Values() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.values)
}

// tierKeys names the credentials tier name holds in the local RustFS,
// without showing a secret: "absent", "remote", "rotated" or "other".
func (w *world) tierKeys(name string) string {
	live, ok := w.local.Tier(name)
	switch {
	case !ok:
		return "absent"
	case live.AccessKey == remoteAK && live.SecretKey == remoteSK:
		return "remote"
	case live.AccessKey == rotatedAK && live.SecretKey == rotatedSK:
		return "rotated"
	}
	return "other"
}
