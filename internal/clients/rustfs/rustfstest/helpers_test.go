package rustfstest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Conformance tests build requests with plain net/http and the AWS SDK's
// SigV4 signer, never with the client package.

const (
	remoteAK = "remote-ak"
	remoteSK = "remote-sk"
)

// A result is a read answer.
type result struct {
	Status  int
	Code    string
	Message string
	Body    []byte
}

// A req describes one signed request.
type req struct {
	method, path, query string
	body                []byte
	ak, sk              string
	payload             string // "" = hex SHA-256 of body
	service, region     string
	at                  time.Time
	unsigned            bool
	header              http.Header
}

func do(t *testing.T, base string, r req) result {
	t.Helper()
	u := base + r.path
	if r.query != "" {
		u += "?" + r.query
	}
	hr, err := http.NewRequest(r.method, u, bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range r.header {
		hr.Header[k] = v
	}
	if !r.unsigned {
		signReq(t, hr, r)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	res := result{Status: resp.StatusCode, Body: body}
	var e struct {
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
	}
	if resp.StatusCode >= 300 && xml.Unmarshal(body, &e) == nil {
		res.Code, res.Message = e.Code, e.Message
	}
	return res
}

func signReq(t *testing.T, hr *http.Request, r req) {
	t.Helper()
	ak, sk, service, region, at := r.ak, r.sk, r.service, r.region, r.at
	if ak == "" {
		ak, sk = DefaultAccessKey, DefaultSecretKey
	}
	if service == "" {
		service = "s3"
	}
	if region == "" {
		region = "us-east-1"
	}
	if at.IsZero() {
		at = time.Now()
	}
	payload := r.payload
	if payload == "" {
		sum := sha256.Sum256(r.body)
		payload = hex.EncodeToString(sum[:])
	}
	if payload != "-" {
		hr.Header.Set("X-Amz-Content-Sha256", payload)
	}
	s := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
	creds := aws.Credentials{AccessKeyID: ak, SecretAccessKey: sk}
	if err := s.SignHTTP(context.Background(), creds, hr, payloadOr(payload, r.body), service, region, at); err != nil {
		t.Fatal(err)
	}
}

func payloadOr(p string, body []byte) string {
	if p != "-" {
		return p
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// want checks status, code and (when not empty) message.
func want(t *testing.T, got result, status int, code, message string) {
	t.Helper()
	if got.Status != status || got.Code != code || message != "" && got.Message != message {
		t.Errorf("want %d %q %q, got %d %q %q (%s)", status, code, message, got.Status, got.Code, got.Message, got.Body)
	}
}

// A pair is a local emulator and a remote one holding bucket "cold".
type pair struct {
	local, remote *Server
}

func newPair(t *testing.T, mode Mode, opts ...Option) pair {
	t.Helper()
	remote := NewServer(WithMode(mode), WithRootCredentials(remoteAK, remoteSK))
	remote.CreateBucket("cold", false)
	local := NewServer(append([]Option{WithMode(mode)}, opts...)...)
	t.Cleanup(local.Close)
	t.Cleanup(remote.Close)
	return pair{local: local, remote: remote}
}

// tierJSON is an Add body for a rustfs tier on the pair's remote.
func (p pair) tierJSON(name string) []byte {
	return []byte(`{"type":"rustfs","rustfs":{"name":"` + name + `","endpoint":"` + p.remote.TierURL() +
		`","accessKey":"` + remoteAK + `","secretKey":"` + remoteSK + `","bucket":"cold","prefix":"tiered/","region":"us-east-1","storageClass":""}}`)
}

func (p pair) add(t *testing.T, body []byte, query string) result {
	t.Helper()
	return do(t, p.local.URL(), req{method: http.MethodPut, path: "/rustfs/admin/v3/tier", query: query, body: body})
}

func (p pair) admin(t *testing.T, method, path, query string, body []byte) result {
	t.Helper()
	return do(t, p.local.URL(), req{method: method, path: "/rustfs/admin/v3" + path, query: query, body: body})
}

func timeNow() time.Time { return time.Now() }
