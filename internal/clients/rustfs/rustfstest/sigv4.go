package rustfstest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// This file is the emulator's own SigV4 implementation (AWS "Signature
// Version 4" canonical request, string to sign and key derivation). It does
// not use the client's signer, so it checks the client independently.

const (
	sigAlgorithm    = "AWS4-HMAC-SHA256"
	unsignedPayload = "UNSIGNED-PAYLOAD"
	amzDateFormat   = "20060102T150405Z"
)

// An authHeader is a parsed Authorization header.
type authHeader struct {
	accessKey     string
	date          string // yyyymmdd of the credential scope
	region        string
	service       string
	signedHeaders []string
	signature     string
}

var errMalformedAuth = errors.New("malformed authorization header")

// parseAuthorization parses
// "AWS4-HMAC-SHA256 Credential=AK/DATE/REGION/SERVICE/aws4_request, SignedHeaders=a;b, Signature=hex".
func parseAuthorization(v string) (authHeader, error) {
	rest, ok := strings.CutPrefix(v, sigAlgorithm+" ")
	if !ok {
		return authHeader{}, errMalformedAuth
	}
	fields := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return authHeader{}, errMalformedAuth
		}
		fields[k] = val
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[4] != "aws4_request" || fields["SignedHeaders"] == "" || fields["Signature"] == "" {
		return authHeader{}, errMalformedAuth
	}
	return authHeader{
		accessKey: scope[0], date: scope[1], region: scope[2], service: scope[3],
		signedHeaders: strings.Split(fields["SignedHeaders"], ";"), signature: fields["Signature"],
	}, nil
}

// expectedSignature computes the signature r should carry.
func expectedSignature(r *http.Request, h authHeader, secretKey, amzDate, payloadHash string) string {
	canonical := strings.Join([]string{
		r.Method, uriEncode(r.URL.Path, false), canonicalQuery(r.URL.RawQuery),
		canonicalHeaders(r, h.signedHeaders), strings.Join(h.signedHeaders, ";"), payloadHash,
	}, "\n")
	scope := strings.Join([]string{h.date, h.region, h.service, "aws4_request"}, "/")
	sum := sha256.Sum256([]byte(canonical))
	toSign := strings.Join([]string{sigAlgorithm, amzDate, scope, hex.EncodeToString(sum[:])}, "\n")
	key := hmacSHA256([]byte("AWS4"+secretKey), h.date)
	for _, s := range []string{h.region, h.service, "aws4_request"} {
		key = hmacSHA256(key, s)
	}
	return hex.EncodeToString(hmacSHA256(key, toSign))
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// uriEncode applies the SigV4 encoding: every byte except A-Z a-z 0-9 - _ . ~
// is %XX (upper-case hex); '/' is kept in paths.
func uriEncode(s string, encodeSlash bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if isUnreserved(ch) || ch == '/' && !encodeSlash {
			b.WriteByte(ch)
			continue
		}
		b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{ch})))
	}
	return b.String()
}

func isUnreserved(ch byte) bool {
	return 'A' <= ch && ch <= 'Z' || 'a' <= ch && ch <= 'z' || '0' <= ch && ch <= '9' ||
		ch == '-' || ch == '_' || ch == '.' || ch == '~'
}

// canonicalQuery decodes the raw query and re-encodes it sorted by key, then value.
func canonicalQuery(raw string) string {
	var pairs [][2]string
	for _, p := range splitQuery(raw) {
		dk, dv := p.key, p.value
		if !p.ok {
			dk, dv = p.rawKey, p.rawValue
		}
		if dk != "X-Amz-Signature" {
			pairs = append(pairs, [2]string{uriEncode(dk, true), uriEncode(dv, true)})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p[0] + "=" + p[1]
	}
	return strings.Join(out, "&")
}

// canonicalHeaders renders the signed headers as "name:value\n" lines.
func canonicalHeaders(r *http.Request, names []string) string {
	var b strings.Builder
	for _, name := range names {
		b.WriteString(name + ":" + headerValue(r, name) + "\n")
	}
	return b.String()
}

func headerValue(r *http.Request, name string) string {
	switch name {
	case "host":
		return r.Host
	case "content-length":
		if v := r.Header.Get("Content-Length"); v != "" {
			return v
		}
		return strconv.FormatInt(r.ContentLength, 10)
	case "transfer-encoding":
		return strings.Join(r.TransferEncoding, ",")
	}
	values := r.Header.Values(name)
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = strings.Join(strings.Fields(v), " ")
	}
	return strings.Join(out, ",")
}
