package rustfstest

import (
	"maps"
	"net/http"
	"time"
)

// A RequestRecord is one served request. It never holds bodies or query
// strings, so it cannot hold a secret.
type RequestRecord struct {
	Method string
	Path   string
	Route  string
	Status int
}

// A Fault changes how a route answers, for failure tests. Status, Reset,
// Redirect and Echo answer instead of the handler; Lost lets the handler
// run, so its write is applied, and then loses or corrupts the answer
// (faults.go).
type Fault struct {
	Status  int           // answer with this status and Code/Message (S3 XML)
	Code    string        // error code; default "InternalError" ("InvalidRequest" with Echo)
	Message string        // error message
	Latency time.Duration // wait before answering (or before the reset); with LossHang, how long to hang
	Reset   bool          // close the TCP connection with a reset instead of answering
	Times   int           // how many requests it applies to; 0 means until cleared
	// RetryAfter is the Retry-After header of a Status answer, as RustFS's
	// rate limiter sends with 429 (docs/rustfs-wire.md §7.3).
	RetryAfter string
	// Lost is what happens to the answer after the handler ran.
	Lost Loss
	// Redirect answers 307 Temporary Redirect to this base URL, with the
	// request's path and query.
	Redirect string
	// Echo answers Status (default 400) with the request body in the
	// error message, as a server or proxy that quotes what it cannot parse.
	Echo bool
}

// count counts a request to route; writes are the provider-visible
// mutations (tier add/edit/remove/clear, bucket create, versioning put,
// lifecycle put/delete, service-account add/update/delete), counted whether
// or not they succeed.
func (e *Emulator) count(route string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.counts[route]++
	if writeRoutes[route] {
		e.writes++
	}
}

func (e *Emulator) record(r *http.Request, route string, status int) {
	e.recordRoute(r.Method, r.URL.Path, route, status)
}

func (e *Emulator) recordRoute(method, path, route string, status int) {
	rec := RequestRecord{Method: method, Path: path, Route: route, Status: status}
	e.mu.Lock()
	e.requests = append(e.requests, rec)
	logf := e.logf
	e.mu.Unlock()
	if logf != nil {
		logf("%s %s route=%s status=%d", rec.Method, rec.Path, rec.Route, rec.Status)
	}
}

// Count returns how many requests reached route since the last reset.
func (e *Emulator) Count(route string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.counts[route]
}

// Counts returns a copy of every route counter.
func (e *Emulator) Counts() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.counts)
}

// Writes returns how many provider-visible write requests were received.
func (e *Emulator) Writes() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.writes
}

// ResetCounters clears the counters, the write count and the request log.
func (e *Emulator) ResetCounters() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.counts = map[string]int{}
	e.writes = 0
	e.requests = nil
}

// Requests returns a copy of the request log.
func (e *Emulator) Requests() []RequestRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]RequestRecord(nil), e.requests...)
}

// InjectFault makes route answer with f until cleared or f.Times is used up.
func (e *Emulator) InjectFault(route string, f Fault) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults[route] = &f
}

// ClearFaults removes every injected fault.
func (e *Emulator) ClearFaults() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults = map[string]*Fault{}
}

// takeFault returns the fault for route, using up one of its Times.
func (e *Emulator) takeFault(route string) (Fault, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f, ok := e.faults[route]
	if !ok {
		return Fault{}, false
	}
	if f.Times > 0 {
		f.Times--
		if f.Times == 0 {
			delete(e.faults, route)
		}
	}
	return *f, true
}
