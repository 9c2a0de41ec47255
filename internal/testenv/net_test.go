package testenv

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

func TestWaitListening(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	exited := errors.New("the process exited")
	cases := map[string]struct {
		reason  string
		addr    string
		timeout time.Duration
		alive   func() error
		want    error
	}{
		"Listening": {
			reason:  "An address that accepts connections is ready at once.",
			addr:    l.Addr().String(),
			timeout: time.Hour,
		},
		"Exited": {
			reason:  "A process that stopped before listening ends the wait with its error, not the timeout.",
			addr:    MustFreeAddr(t),
			timeout: time.Hour,
			alive:   func() error { return exited },
			want:    exited,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if err := WaitListening(context.Background(), tc.addr, tc.timeout, tc.alive); !errors.Is(err, tc.want) {
				t.Errorf("%s\nWaitListening(%s): got %v, want %v", tc.reason, tc.addr, err, tc.want)
			}
		})
	}
}

// A wait for an address nothing listens on ends with an error once the
// timeout has passed.
func TestWaitListeningTimesOut(t *testing.T) {
	addr := MustFreeAddr(t)
	if err := WaitListening(context.Background(), addr, 0, nil); err == nil {
		t.Errorf("WaitListening(%s) with nothing listening: got no error", addr)
	}
}
