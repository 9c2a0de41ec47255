package testenv

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// FreeAddr returns a loopback address whose port was free a moment ago.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", errors.Wrap(err, "cannot find a free port")
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String(), nil
}

// MustFreeAddr is FreeAddr for a test: it fails the test on an error.
func MustFreeAddr(t testing.TB) string {
	t.Helper()
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// WaitListening waits until addr accepts TCP connections. It returns an
// error after timeout, when ctx ends, or as soon as alive (if not nil)
// returns one: the process that should listen has stopped.
func WaitListening(ctx context.Context, addr string, timeout time.Duration, alive func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return conn.Close()
		}
		if alive != nil {
			if aerr := alive(); aerr != nil {
				return aerr
			}
		}
		if time.Now().After(deadline) {
			return errors.Wrapf(err, "nothing listens on %s", addr)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
