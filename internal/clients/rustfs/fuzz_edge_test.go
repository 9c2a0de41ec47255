package rustfs

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
)

// FuzzScrub: a key of MinScrubLength bytes or more never survives Scrub,
// whatever text surrounds it.
func FuzzScrub(f *testing.F) {
	f.Add("cannot use secret-key-1 here", "secret-key-1")
	f.Add("ACTED-ab-ab", "ACTED-ab")
	f.Add(`{"secretKey":"a\"b\\c-123"}`, `a"b\c-123`)
	f.Add("short abcd key", "abcd")
	f.Fuzz(func(t *testing.T, text, secret string) {
		got := Scrub(text, secret)
		if len(secret) >= MinScrubLength && strings.Contains(got, secret) {
			t.Fatalf("Scrub(%q, %q) = %q still holds the key", text, secret, got)
		}
		if secret == "" && got != text {
			t.Fatalf("Scrub without keys changed %q to %q", text, got)
		}
	})
}

// FuzzEchoedErrorBody: an error answer that echoes a known key, as an XML
// or JSON message, a request ID, or a raw body, builds an APIError whose
// text never holds the key (in any form the echo used).
func FuzzEchoedErrorBody(f *testing.F) {
	f.Add(400, "cannot use ", " as a key", "tier-secret-key", uint8(0))
	f.Add(500, "", "", "SENTINEL-secret", uint8(1))
	f.Add(502, "<html>", "</html>", "x&y<z>secret", uint8(2))
	f.Add(403, "echo:", "", "a\"quoted\\secret", uint8(3))
	f.Fuzz(func(t *testing.T, status int, before, after, secret string, shape uint8) {
		// Keys are read trimmed (connection.ReadSecret), so none begins or
		// ends with a space; such a key could appear in the error text
		// through the ": " that the text puts before the message.
		if len(secret) < MinScrubLength || strings.TrimSpace(secret) != secret {
			return
		}
		var body string
		switch shape % 4 {
		case 0:
			body = "<Error><Code>InvalidArgument</Code><Message>" + xmlEscape(before+secret+after) + "</Message></Error>"
		case 1:
			b, _ := json.Marshal(map[string]string{"Code": "X" + secret, "Message": before + secret + after}) // strings
			body = string(b)
		case 2:
			body = "<Error><Code>Bad</Code><RequestId>" + xmlEscape(secret) + "</RequestId></Error>"
		default:
			body = before + secret + after
		}
		h := http.Header{"X-Amz-Request-Id": {secret}}
		e := parseError(status, h, []byte(body), []string{secret})
		for _, s := range []string{e.Error(), e.Code, e.Message, e.RequestID} {
			if strings.Contains(s, secret) || strings.Contains(s, xmlEscape(secret)) || strings.Contains(s, jsonEscape(secret)) {
				t.Fatalf("body %q: APIError field %q holds the key %q", body, s, secret)
			}
		}
	})
}

// FuzzParseTierStats: any body decodes to stats sorted by name, or fails;
// it never panics.
func FuzzParseTierStats(f *testing.F) {
	f.Add([]byte(`{"COLD":{"total_size":10,"num_versions":2,"num_objects":1}}`))
	f.Add([]byte(`{"contractVersion":2,"tiers":[{"name":"B","transitionsLast24h":{"totalSize":1,"numVersions":1,"numObjects":1}},{"name":"A"}],"inventory":{"status":"unavailable"}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"contractVersion":"x"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		stats, err := parseTierStats(body)
		if err != nil {
			return
		}
		if !sort.SliceIsSorted(stats, func(i, j int) bool { return stats[i].Name < stats[j].Name }) {
			t.Fatal("not sorted by name")
		}
	})
}
