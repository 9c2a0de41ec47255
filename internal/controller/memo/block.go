package memo

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// BlockKey is the annotation that records a blocking failure.
const BlockKey = Prefix + "blocked"

// A Block records a write that failed in a way only a change of
// configuration can fix. The write is not attempted again while the
// Fingerprint of the resource's inputs stays the same, and, for an
// ambiguous answer, until it Expires.
type Block struct {
	Reason      xpv2.ConditionReason `json:"reason"`
	Message     string               `json:"message"`
	Fingerprint string               `json:"fingerprint"`

	// Op names the write that failed, for kinds with several (a tier's add
	// and credentials edit); a block of one write never stops another.
	// Empty for kinds with one write.
	Op string `json:"op,omitempty"`

	// Expires, when set, is when the block lapses by itself.
	Expires *metav1.Time `json:"expires,omitempty"`
}

// Fingerprint digests the inputs whose change lifts a block, for example
// the resource's generation, its Secret's resourceVersion and its
// ProviderConfig's revision.
func Fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:8])
}

// Blocked returns the block recorded on o if it is for op, still applies to
// the inputs digested in fingerprint and has not lapsed at now.
func Blocked(o client.Object, fingerprint, op string, now time.Time) (Block, bool) {
	var b Block
	if !Get(o, BlockKey, &b) || b.Fingerprint != fingerprint || b.Op != op {
		return Block{}, false
	}
	if b.Expires != nil && !now.Before(b.Expires.Time) {
		return Block{}, false
	}
	return b, true
}

// A BlockError reports a write blocked by a failure: its message is the
// condition message the resource shows, and it unwraps to the error that
// caused the block (a *rustfs.APIError, say), so that callers can still
// classify it.
type BlockError struct {
	Message string
	Cause   error
}

func (e *BlockError) Error() string { return e.Message }

// Unwrap returns the cause of the block.
func (e *BlockError) Unwrap() error { return e.Cause }
