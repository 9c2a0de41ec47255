package rustfs

import (
	"bytes"
	"io"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Caps on how much of an answer the client reads (docs/rustfs-wire.md §19.1).
// MaxBody bounds a 2xx answer: the largest legitimate ones are a 1,000-rule
// lifecycle and a long tier list, which TestBodyCapHoldsTheLargestAnswers
// renders at under half of it. A longer answer is an error, and no decoder
// sees any of it. maxErrorBody bounds an error answer, of which only the
// code and the first 512 bytes of the message are kept.
//
// Within the cap, element budgets bound what decoding may allocate: an
// answer of tiny elements (a list of empty objects) costs far more memory
// than its size. An answer over its budget is refused before it is decoded.
const (
	MaxBody      = 8 << 20
	maxErrorBody = 64 << 10

	maxTierObjects       = 20_000  // '{' in a tier list: two per tier, 10,000 tiers
	maxStatsObjects      = 30_000  // '{' in tier stats: up to three per tier, 10,000 tiers
	maxLifecycleElements = 125_000 // '<' in a lifecycle: twice the 62,003 of the largest 1,000-rule one
	maxLifecycleRules    = 1_000   // S3's limit, and the BucketLifecycle schema's
)

// errBodyTooLarge is the error for a 2xx answer longer than MaxBody.
var errBodyTooLarge = errors.Errorf("response body exceeds %d MiB: the provider reads no more (a proxy or a server that is not RustFS may be answering)", MaxBody>>20)

// IsBodyTooLarge reports whether err is a 2xx answer longer than MaxBody.
func IsBodyTooLarge(err error) bool { return errors.Is(err, errBodyTooLarge) }

// withinBudget refuses an answer with more than max elements, counted as
// the bytes that open one.
func withinBudget(body []byte, open byte, max int) error {
	if n := bytes.Count(body, []byte{open}); n > max {
		return errors.Errorf("answer has %d elements, more than the %d any legitimate answer needs", n, max)
	}
	return nil
}

// countRules counts the <Rule> start elements of a lifecycle body.
func countRules(body []byte) int {
	n := 0
	for i := bytes.Index(body, []byte("<Rule")); i >= 0; {
		rest := body[i+len("<Rule"):]
		if len(rest) > 0 && (rest[0] == '>' || rest[0] == '/' || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r') {
			n++
		}
		j := bytes.Index(rest, []byte("<Rule"))
		if j < 0 {
			break
		}
		i += len("<Rule") + j
	}
	return n
}

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
