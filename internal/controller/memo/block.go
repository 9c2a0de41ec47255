package memo

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// BlockKey is the annotation that records a blocking failure.
const BlockKey = Prefix + "blocked"

// A Block records a write that failed in a way only a change of
// configuration can fix. The write is not attempted again while the
// Fingerprint of the resource's inputs stays the same.
type Block struct {
	Reason      xpv2.ConditionReason `json:"reason"`
	Message     string               `json:"message"`
	Fingerprint string               `json:"fingerprint"`
}

// Fingerprint digests the inputs whose change lifts a block, for example
// the resource's generation, its Secret's resourceVersion and its
// ProviderConfig's revision.
func Fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:8])
}

// Blocked returns the block recorded on o if it still applies to the
// inputs digested in fingerprint.
func Blocked(o client.Object, fingerprint string) (Block, bool) {
	var b Block
	if !Get(o, BlockKey, &b) || b.Fingerprint != fingerprint {
		return Block{}, false
	}
	return b, true
}
