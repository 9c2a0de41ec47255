package rustfs

import (
	"bytes"
	"context"
	"crypto/md5" // Content-MD5 is an integrity header, not a security primitive
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

const (
	// signingService is the SigV4 service RustFS expects for both the S3 and
	// the admin API (docs/rustfs-wire.md §7.1, §19).
	signingService = "s3"
)

// newSigner returns the AWS SDK's SigV4 signer configured for S3: S3 paths are
// signed as sent, without a second round of escaping.
func newSigner() *v4.Signer {
	return v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
}

// signRequest signs r with SigV4 over a signed payload: x-amz-content-sha256
// is the hex SHA-256 of body (docs/rustfs-wire.md §7.1, §19).
func signRequest(ctx context.Context, s *v4.Signer, r *http.Request, body []byte, accessKey, secretKey, region string, at time.Time) error {
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	r.Header.Set("X-Amz-Content-Sha256", hash)
	creds := aws.Credentials{AccessKeyID: accessKey, SecretAccessKey: secretKey}
	return errors.Wrap(s.SignHTTP(ctx, creds, r, hash, signingService, region, at), "cannot sign request")
}

// A request describes one call before it is signed.
type request struct {
	op          string // the operation reported to the observer (ops.go)
	method      string
	path        string // unescaped path, for example /bucket or /rustfs/admin/v3/tier
	rawPath     string // escaped path when it differs from path
	query       url.Values
	body        []byte
	contentType string
	contentMD5  bool
	header      http.Header
	secrets     []string // key values in the request, scrubbed from every answer (Scrub)
	remote      bool     // RustFS contacts the remote tier before it answers (Config.RemoteTimeout)
}

// A response is a read 2xx answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do signs and sends rq within its deadline (deadline). It returns the
// response for any 2xx status and an *APIError for any other status but a
// redirect, which it never follows (redirectError). Every text of the answer
// in an error is scrubbed of the keys the client knows (Scrub), and no body
// is read beyond its cap (readBody).
func (c *Client) do(ctx context.Context, rq request) (*response, error) {
	if err := c.refuseWrite(rq.op); err != nil {
		return nil, err
	}
	start := time.Now()
	resp, code, err := c.send(ctx, rq)
	c.observe(rq.op, code, start)
	return resp, err
}

// send is do without the report to the observer. It returns the result
// code of a request it sent (observe.go), or "" for one it could not build.
func (c *Client) send(ctx context.Context, rq request) (*response, string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.deadline(rq))
	defer cancel()
	req, err := c.newHTTPRequest(ctx, rq)
	if err != nil {
		return nil, "", err
	}
	if err := signRequest(ctx, c.signer, req, rq.body, c.accessKey, c.secretKey, c.region, c.now()); err != nil {
		return nil, "", err
	}
	secrets := append([]string{c.secretKey, c.accessKey}, rq.secrets...)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, failureCode(err, CodeNetwork), scrubErr(errors.Wrapf(err, "%s %s", rq.method, rq.path), secrets)
	}
	defer resp.Body.Close() // read-only body
	if isRedirect(resp.StatusCode) {
		return nil, statusCode(resp.StatusCode, ""), redirectError(resp, secrets)
	}
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	body, err := readBody(resp.Body, ok)
	if err != nil {
		return nil, failureCode(err, CodeUnreadable), scrubErr(errors.Wrapf(err, "cannot read response to %s %s", rq.method, rq.path), secrets)
	}
	if !ok {
		e := parseError(resp.StatusCode, resp.Header, body, secrets)
		return nil, statusCode(e.Status, e.Code), e
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: body}, statusCode(resp.StatusCode, ""), nil
}

func (c *Client) newHTTPRequest(ctx context.Context, rq request) (*http.Request, error) {
	u := *c.base
	u.Path = c.base.Path + rq.path
	if rq.rawPath != "" {
		u.RawPath = c.base.EscapedPath() + rq.rawPath
	}
	u.RawQuery = rq.query.Encode()
	req, err := http.NewRequestWithContext(ctx, rq.method, u.String(), bytes.NewReader(rq.body))
	if err != nil {
		return nil, errors.Wrap(err, "cannot build request")
	}
	if len(rq.body) == 0 {
		req.Body = http.NoBody
		req.ContentLength = 0
	}
	for k, v := range rq.header {
		req.Header[k] = v
	}
	if rq.contentType != "" {
		req.Header.Set("Content-Type", rq.contentType)
	}
	if rq.contentMD5 {
		sum := md5.Sum(rq.body)
		req.Header.Set("Content-Md5", base64.StdEncoding.EncodeToString(sum[:]))
	}
	req.Header.Set("User-Agent", c.userAgent)
	return req, nil
}
