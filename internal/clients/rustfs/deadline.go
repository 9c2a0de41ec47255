package rustfs

import "time"

// Deadlines per operation (docs/rustfs-wire.md §4.4, §13.6, §19.1). RustFS
// gives its own check of a remote tier 30 s (TIER_REMOTE_VALIDATION_TIMEOUT),
// GA adds a cleanup window and, before and after it, a lock, a drain of
// active transitions and peer fan-outs; a client that gave up at 30 s would
// cut off the server's answer. So the calls that make RustFS contact the
// remote (tier add, credential edit, verify, remove) get RemoteTimeout, and
// every other call gets Timeout. There is no http.Client timeout: each
// request carries its own deadline in its context.
const (
	// DefaultTimeout is the deadline of a call RustFS answers without
	// contacting a remote, when Config.Timeout is 0.
	DefaultTimeout = 30 * time.Second
	// DefaultRemoteTimeout is the deadline of a call that makes RustFS
	// contact the remote tier, when Config.RemoteTimeout is 0: three times
	// RustFS's 30 s remote validation.
	DefaultRemoteTimeout = 90 * time.Second
)

// deadline returns how long rq may take.
func (c *Client) deadline(rq request) time.Duration {
	if rq.remote {
		return c.remote
	}
	return c.timeout
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
