package rustfstest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"
)

// A Loss is what happens to an answer after the handler ran and applied
// its write: RustFS can apply an add and still answer an error
// (docs/rustfs-wire.md §13.5), and a connection can break or a proxy can
// mangle the answer on the way back (docs/rustfs-wire.md §12.11).
type Loss int

// Losses.
const (
	// LossNone leaves the answer alone.
	LossNone Loss = iota
	// LossReset resets the connection instead of answering.
	LossReset
	// LossClose closes the connection without an answer.
	LossClose
	// LossHang answers nothing until the client gives up (a timeout on
	// the client's side), or Fault.Latency passes, then closes.
	LossHang
	// LossGarbage answers 200 with a body that is not the answer.
	LossGarbage
	// LossTruncated sends the answer's status and headers, a Content-Length
	// longer than what follows, half the body, and closes.
	LossTruncated
	// LossStatus answers Fault.Status (default 500 InternalError) although
	// the write was applied.
	LossStatus
)

// garbage is the body of LossGarbage: neither JSON nor XML.
const garbage = "\x00\x1f<<garbage: not the answer>>"

// answerFault serves the part of f that answers instead of the handler and
// reports whether it answered. A latency-only fault, and a Lost fault, let
// the request continue.
func (e *Emulator) answerFault(w http.ResponseWriter, r *http.Request, c *call, f Fault) bool {
	if f.Latency > 0 && f.Lost != LossHang {
		wait(r, f.Latency)
	}
	status := 0
	switch {
	case f.Reset:
		resetConnection(w)
	case f.Redirect != "":
		w.Header().Set("Location", strings.TrimSuffix(f.Redirect, "/")+r.URL.RequestURI())
		status = http.StatusTemporaryRedirect
		w.WriteHeader(status)
	case f.Echo:
		status = echo(w, r, c, f)
	case f.Status != 0 && f.Lost == LossNone:
		status = f.Status
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		writeError(w, r, errf(f.Status, orDefault(f.Code, "InternalError"), f.Message), c.reqID)
	default:
		return false
	}
	e.record(r, c.route, status)
	return true
}

// echo answers an error whose message quotes the request body, as a
// server or proxy that echoes what it could not parse.
func echo(w http.ResponseWriter, r *http.Request, c *call, f Fault) int {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxEchoBody))
	status := f.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	msg := orDefault(f.Message, "cannot parse the request body: ") + string(body)
	writeError(w, r, errf(status, orDefault(f.Code, "InvalidRequest"), msg), c.reqID)
	return status
}

// maxEchoBody bounds what echo quotes.
const maxEchoBody = 1 << 20

// serveLost runs the handler into a buffer, so that its write is applied,
// and then gives the client f.Lost instead of the handler's answer.
func (e *Emulator) serveLost(w http.ResponseWriter, r *http.Request, c *call, f Fault) {
	rec := httptest.NewRecorder()
	c.w = rec
	if err := e.dispatch(c); err != nil {
		writeError(rec, r, err, c.reqID)
	}
	e.record(r, c.route, loseAnswer(w, r, c, rec, f))
}

// loseAnswer sends what f.Lost makes of the answer in rec and returns the
// status the client saw, 0 for none.
func loseAnswer(w http.ResponseWriter, r *http.Request, c *call, rec *httptest.ResponseRecorder, f Fault) int {
	switch f.Lost {
	case LossReset:
		resetConnection(w)
	case LossHang:
		wait(r, f.Latency)
		closeConnection(w)
	case LossGarbage:
		w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
		w.Header().Set("Content-Length", strconv.Itoa(len(garbage)))
		_, _ = io.WriteString(w, garbage)
		return http.StatusOK
	case LossTruncated:
		body := rec.Body.Bytes()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)+16))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body[:len(body)/2])
		closeConnection(w)
		return rec.Code
	case LossStatus:
		status := f.Status
		if status == 0 {
			status = http.StatusInternalServerError
		}
		writeError(w, r, errf(status, orDefault(f.Code, "InternalError"), f.Message), c.reqID)
		return status
	default:
		closeConnection(w)
	}
	return 0
}

// wait waits d, or until the client gives up; d == 0 waits only for the
// client.
func wait(r *http.Request, d time.Duration) {
	var after <-chan time.Time
	if d > 0 {
		after = time.After(d)
	}
	select {
	case <-after:
	case <-r.Context().Done():
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// resetConnection hijacks the connection and closes it with SO_LINGER 0, so
// the client sees a connection reset.
func resetConnection(w http.ResponseWriter) {
	conn := hijack(w)
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	if conn != nil {
		_ = conn.Close()
	}
}

// closeConnection hijacks the connection, sending what was written so far,
// and closes it: the client sees the answer end early.
func closeConnection(w http.ResponseWriter) {
	if conn := hijack(w); conn != nil {
		_ = conn.Close()
	}
}

func hijack(w http.ResponseWriter) net.Conn {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return nil
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return nil
	}
	_ = buf.Flush()
	return conn
}
