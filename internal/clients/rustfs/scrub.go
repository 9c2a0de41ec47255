package rustfs

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// Lengths below which a known key value is treated with care, so that a
// short key cannot turn every message into REDACTED. A value of at least
// MinScrubLength bytes is replaced wherever it occurs; a shorter value of at
// least minTokenLength bytes only where it stands alone (not inside a longer
// run of letters and digits); a value shorter than that is left alone: it
// protects nothing, and RustFS refuses secret keys under 8 characters.
const (
	MinScrubLength = 8
	minTokenLength = 4
)

// Scrub returns s with every known secret value replaced by REDACTED. Each
// value is also replaced in the encodings a server that echoes a request may
// use: JSON-escaped, XML-escaped, URL-query-escaped and standard base64
// (GCS credentials travel base64-encoded). Every text a server
// supplies passes through Scrub before it reaches an error, so conditions,
// events, Tenant status rows and logs never hold a key the provider knows.
//
// Replacing can make a new occurrence where REDACTED meets the text next to
// it (a key "ACTED-ab" in "ACTED-ab-ab"); a text in which any key of 8 bytes
// or more still occurs is withheld whole.
func Scrub(s string, secrets ...string) string {
	vs := variants(secrets)
	for _, v := range vs {
		if len(v) >= MinScrubLength {
			s = strings.ReplaceAll(s, v, redacted)
			continue
		}
		s = replaceTokens(s, v)
	}
	for _, v := range vs {
		if len(v) >= MinScrubLength && strings.Contains(s, v) {
			return withheld
		}
	}
	return s
}

// withheld replaces a text that scrubbing could not clean.
const withheld = "(text withheld: it contains a key)"

// variants returns every value and its encodings, longest first, so that a
// value containing another is replaced whole.
func variants(secrets []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range secrets {
		if len(v) < minTokenLength {
			continue
		}
		for _, e := range []string{v, jsonEscape(v), xmlEscape(v), url.QueryEscape(v), base64.StdEncoding.EncodeToString([]byte(v))} {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

func jsonEscape(v string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a string always encodes
	return strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(b.String(), `"`), "\n"), `"`)
}

func xmlEscape(v string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(v)) // a strings.Builder never fails
	return b.String()
}

// replaceTokens replaces v where it is not part of a longer run of letters
// and digits.
func replaceTokens(s, v string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, v)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(v)
		alone := (i == 0 || !isAlnum(s[i-1])) && (end == len(s) || !isAlnum(s[end]))
		b.WriteString(s[:i])
		if alone {
			b.WriteString(redacted)
		} else {
			b.WriteString(v)
		}
		s = s[end:]
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// gcsSecrets returns a GCS tier's credentials JSON and the secret values
// inside it (an authorized user's client_secret and refresh_token, a
// service-account key's private_key), which a server may echo on their own.
func gcsSecrets(creds string) []string {
	if creds == "" {
		return nil
	}
	var j struct {
		ClientSecret string `json:"client_secret"`
		RefreshToken string `json:"refresh_token"`
		PrivateKey   string `json:"private_key"`
	}
	out := []string{creds}
	if json.Unmarshal([]byte(creds), &j) != nil {
		return out
	}
	for _, v := range []string{j.ClientSecret, j.RefreshToken, j.PrivateKey} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// A scrubbedError carries an error whose text was scrubbed; errors.Is and
// errors.As still see the original, for classification.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// scrubErr returns err with its text scrubbed of secrets and clipped.
func scrubErr(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	return &scrubbedError{msg: clipLong(Scrub(err.Error(), secrets...)), err: err}
}

// clipLong bounds an error text that may carry server data to four times
// the length of a server message, and keeps it valid UTF-8.
func clipLong(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) <= 4*maxMessage {
		return s
	}
	s = s[:4*maxMessage]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// safeEndpoint returns what an error may show of an endpoint: the text
// before any query or fragment, with everything after the scheme up to the
// last "@" (user info, however mistyped) replaced by REDACTED, clipped.
func safeEndpoint(s string) string {
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		scheme, rest = "", s
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = redacted + "@" + rest[i+1:]
	}
	if ok {
		rest = scheme + "://" + rest
	}
	return clip(rest)
}

// scrub returns err, a failure to decode an answer, scrubbed of the
// client's own keys: decoders may quote what they could not read.
func (c *Client) scrub(err error) error { return scrubErr(err, []string{c.secretKey, c.accessKey}) }
