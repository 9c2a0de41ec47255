package rustfstest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// A Sink is an HTTP server that answers 200 to every request and keeps
// what it received: the host a Redirect fault names, so that a test can
// check what a client sent there.
type Sink struct {
	srv      *httptest.Server
	mu       sync.Mutex
	received []string // per request: method, URL, headers and body
}

// NewSink starts a Sink on a free loopback port.
func NewSink() *Sink {
	s := &Sink{}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

func (s *Sink) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxEchoBody))
	var b strings.Builder
	b.WriteString(r.Method + " " + r.URL.String() + "\n")
	_ = r.Header.Write(&b)
	b.Write(body)
	s.mu.Lock()
	s.received = append(s.received, b.String())
	s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// URL returns the base URL, for example http://127.0.0.1:41235.
func (s *Sink) URL() string { return s.srv.URL }

// Requests returns how many requests the sink received.
func (s *Sink) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.received)
}

// Received reports whether any request's URL, headers or body held text.
func (s *Sink) Received(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.received {
		if strings.Contains(r, text) {
			return true
		}
	}
	return false
}

// Close stops the sink.
func (s *Sink) Close() { s.srv.Close() }
