package rustfs

import (
	"fmt"
	"net/http"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// noRedirects is the http.Client's redirect policy: the 3xx answer itself
// comes back, and do turns it into a RedirectError. Following it would
// resend the request, a tier's secret key included, to whatever host the
// Location names (docs/rustfs-wire.md §19.1).
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func isRedirect(status int) bool { return status >= 300 && status <= 399 }

// A RedirectError is a 3xx answer, which the client never follows. It names
// the host of the Location only: its path and query may carry tokens.
// Nothing changes it but a change of the endpoint or of the server, so it is
// not transient (IsTransient).
type RedirectError struct {
	Status int
	Host   string // host[:port] of the Location; "" when it had none
}

// Error says what was refused and what to do.
func (e *RedirectError) Error() string {
	to := "without a Location"
	if e.Host != "" {
		to = fmt.Sprintf("to host %q", e.Host)
	}
	return fmt.Sprintf("rustfs: %d %s: the endpoint redirects %s, and the provider never follows redirects: "+
		"set the endpoint to the RustFS server itself", e.Status, http.StatusText(e.Status), to)
}

// redirectError builds the error for a 3xx answer. The Location is
// resolved against the request, so a relative one names the endpoint's own
// host; the host is scrubbed and clipped like any server text.
func redirectError(resp *http.Response, secrets []string) *RedirectError {
	e := &RedirectError{Status: resp.StatusCode}
	if loc, err := resp.Location(); err == nil {
		e.Host = clip(Scrub(loc.Host, secrets...))
	}
	return e
}

// IsRedirect reports whether err is a 3xx answer the client refused to follow.
func IsRedirect(err error) bool {
	var e *RedirectError
	return errors.As(err, &e)
}
