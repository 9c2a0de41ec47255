package rustfs

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// An APIError is a non-2xx answer from RustFS. Code and Message come from the
// S3 XML <Error> body (docs/rustfs-wire.md §0.1) or from a JSON body
// ({"Code":…,"Message":…}, as MinIO sends, §11). Code is empty when the body
// had none, for example on HEAD. Code, Message and RequestID are scrubbed
// of every key the client knew when it sent the request (Scrub).
type APIError struct {
	Status    int
	Code      string
	Message   string
	RequestID string
}

// Error returns "<status> <code>: <message>".
func (e *APIError) Error() string {
	code := e.Code
	if code == "" {
		code = http.StatusText(e.Status)
	}
	if e.Message == "" {
		return fmt.Sprintf("rustfs: %d %s", e.Status, code)
	}
	return fmt.Sprintf("rustfs: %d %s: %s", e.Status, code, e.Message)
}

// errorBody matches both the XML <Error> element and the JSON error object.
type errorBody struct {
	XMLName   xml.Name `xml:"Error" json:"-"`
	Code      string   `xml:"Code" json:"Code"`
	Message   string   `xml:"Message" json:"Message"`
	RequestID string   `xml:"RequestId" json:"RequestId"`
}

const maxMessage = 512

// parseError builds an APIError from a non-2xx status, its headers and
// body. Every text taken from the answer is scrubbed of secrets (Scrub)
// before it is clipped, so no part of a key survives at a clip boundary.
func parseError(status int, header http.Header, body []byte, secrets []string) *APIError {
	text := func(s string) string { return clip(Scrub(s, secrets...)) }
	e := &APIError{Status: status, RequestID: text(header.Get("X-Amz-Request-Id"))}
	var b errorBody
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return e
	case trimmed[0] == '{':
		if json.Unmarshal(trimmed, &b) != nil {
			b = errorBody{}
		}
	case trimmed[0] == '<':
		if xml.Unmarshal(trimmed, &b) != nil {
			b = errorBody{}
		}
	}
	e.Code = text(b.Code)
	e.Message = text(b.Message)
	if b.RequestID != "" {
		e.RequestID = text(b.RequestID)
	}
	if e.Code == "" && e.Message == "" {
		e.Message = text(string(trimmed))
	}
	return e
}

// clip bounds a server-provided string and keeps it valid UTF-8.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) <= maxMessage {
		return s
	}
	s = s[:maxMessage]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
