package rustfs

import (
	"io"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Caps on how much of an answer the client reads (docs/rustfs-wire.md §19.1).
// MaxBody bounds a 2xx answer: the largest legitimate ones are a 1,000-rule
// lifecycle and a long tier list, which TestBodyCapHoldsTheLargestAnswers
// renders at well under half of it. A longer answer is an error, and no
// decoder sees any of it. maxErrorBody bounds an error answer, of which only
// the code and the first 512 bytes of the message are kept.
const (
	MaxBody      = 4 << 20
	maxErrorBody = 64 << 10
)

// errBodyTooLarge is the error for a 2xx answer longer than MaxBody.
var errBodyTooLarge = errors.Errorf("response body exceeds %d MiB: the provider reads no more (a proxy or a server that is not RustFS may be answering)", MaxBody>>20)

// IsBodyTooLarge reports whether err is a 2xx answer longer than MaxBody.
func IsBodyTooLarge(err error) bool { return errors.Is(err, errBodyTooLarge) }

// readBody reads a 2xx answer (ok) up to MaxBody, and fails beyond it; an
// error answer is read up to maxErrorBody and the rest is dropped.
func readBody(r io.Reader, ok bool) ([]byte, error) {
	if !ok {
		return io.ReadAll(io.LimitReader(r, maxErrorBody))
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxBody {
		return nil, errBodyTooLarge
	}
	return b, nil
}
