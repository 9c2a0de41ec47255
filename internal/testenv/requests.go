package testenv

import (
	"net/http"
	"sync"

	"k8s.io/client-go/rest"
)

// A RequestLog records the requests a manager sends to the API server
// (method and path, never bodies), so that a test can count, for example,
// the reads of one Secret.
type RequestLog struct {
	mu   sync.Mutex
	reqs []string
}

// wrap makes cfg's transport record into l.
func (l *RequestLog) wrap(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			l.mu.Lock()
			l.reqs = append(l.reqs, r.Method+" "+r.URL.Path)
			l.mu.Unlock()
			return rt.RoundTrip(r)
		})
	})
	return c
}

// Count returns how many recorded requests were method on path.
func (l *RequestLog) Count(method, path string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.reqs {
		if r == method+" "+path {
			n++
		}
	}
	return n
}

// SecretReads returns how many times Secret ns/name was read.
func (l *RequestLog) SecretReads(ns, name string) int {
	return l.Count(http.MethodGet, "/api/v1/namespaces/"+ns+"/secrets/"+name)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
