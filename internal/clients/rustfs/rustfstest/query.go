package rustfstest

import (
	"net/url"
	"strings"
)

// A queryPair is one key=value part of a raw query, as sent and decoded
// by url.QueryUnescape (a half that does not decode is empty). ok is
// false when either half does not decode.
type queryPair struct {
	rawKey, rawValue string
	key, value       string
	ok               bool
}

// splitQuery splits a raw query into its pairs in order, skipping empty
// parts, as the RustFS query decoders and the SigV4 canonical query read it.
func splitQuery(raw string) []queryPair {
	var out []queryPair
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		dk, err1 := url.QueryUnescape(k)
		dv, err2 := url.QueryUnescape(v)
		out = append(out, queryPair{rawKey: k, rawValue: v, key: dk, value: dv, ok: err1 == nil && err2 == nil})
	}
	return out
}
