package rustfs

import (
	"context"
	"errors"
	"sort"
	"time"
)

// A RequestObserver is told of every request a Client sends: its operation
// (one of Operations), its result code (one of ResultCodes) and how long
// it took, answer read included. Both labels come from bounded sets: no
// server text, bucket or tier name ever reaches an observer. It must be
// safe for concurrent use.
type RequestObserver interface {
	ObserveRequest(operation, code string, d time.Duration)
}

// WithRequestObserver makes the client report every request it sends to o.
func WithRequestObserver(o RequestObserver) Option { return func(c *Client) { c.observer = o } }

// Result codes that are not an error code of the answer.
const (
	// CodeTimeout is a request whose deadline passed before the answer was read.
	CodeTimeout = "timeout"
	// CodeCanceled is a request its caller canceled.
	CodeCanceled = "canceled"
	// CodeNetwork is a request that got no answer: refused, reset, DNS, TLS.
	CodeNetwork = "network"
	// CodeUnreadable is an answer whose body could not be read or was too large.
	CodeUnreadable = "unreadable"
	// CodeOther is a status outside 100-599.
	CodeOther = "other"
)

// statusClasses are the codes of an answer by status class: success is
// "2xx", a redirect "3xx", and an error answer whose code is not in
// labelCodes (or that has none, as on HEAD) is "4xx" or "5xx".
var statusClasses = []string{"1xx", "2xx", "3xx", "4xx", "5xx"}

// labelCodes are the error codes reported as themselves: the codes the
// client tells apart (classify.go) and the common S3 ones. Any other code
// is server text of unbounded variety and is reported by status class.
var labelCodes = union(codesTierNotFound, codesTierExists, codesBackendInUse, codesInvalidName, codesInvalidConfig,
	codesAccessDenied, codesTransient, codesTier, codes("XRustFSAdminTierReserved", "NoSuchBucket",
		"NoSuchLifecycleConfiguration", "BucketAlreadyOwnedByYou", "BucketAlreadyExists", "InvalidBucketName",
		"ObjectLockConfigurationNotFoundError", "NoSuchObjectLockConfiguration", "NoSuchResource",
		"InvalidArgument", "InvalidRequest", "InvalidStorageClass", "MalformedXML", "NotImplemented",
		"MethodNotAllowed", "XMinioAdminNoSuchUser", "XMinioAdminNoSuchPolicy"))

func union(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for k := range s {
			out[k] = true
		}
	}
	return out
}

// ResultCodes returns every code a RequestObserver can be told, sorted.
func ResultCodes() []string {
	out := append([]string{CodeTimeout, CodeCanceled, CodeNetwork, CodeUnreadable, CodeOther}, statusClasses...)
	for c := range labelCodes {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// statusCode returns the code of an answer with status and error code.
func statusCode(status int, code string) string {
	if status >= 400 && labelCodes[code] {
		return code
	}
	if status < 100 || status > 599 {
		return CodeOther
	}
	return statusClasses[status/100-1]
}

// failureCode returns the code of a request that got no answer, or whose
// answer could not be read; unread is the code when it is neither a
// timeout nor a cancellation.
func failureCode(err error, unread string) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout
	case errors.Is(err, context.Canceled):
		return CodeCanceled
	}
	return unread
}

// observe reports one sent request, if the client has an observer.
func (c *Client) observe(op, code string, start time.Time) {
	if c.observer == nil || code == "" {
		return
	}
	if op == "" {
		op = OpUnknown
	}
	c.observer.ObserveRequest(op, code, time.Since(start))
}
