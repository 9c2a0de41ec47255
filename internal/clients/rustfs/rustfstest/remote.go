package rustfstest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// errProbeTimeout is the 30 s remote validation deadline (docs/rustfs-wire.md §4): RustFS then
// answers as if the backend were in use.
var errProbeTimeout = errors.New("Timed out validating the remote tier mutation") //nolint:staticcheck // RustFS's text

// probeObject is the object verify (and GA add) writes, reads and deletes (docs/rustfs-wire.md §1.5).
const probeObject = "probeobject"

// remoteCall sends one signed S3 request to a tier's endpoint with the
// tier's credentials. Errors carry RustFS's texts: "client error (Connect)"
// for transport failures and "remote tier request failed with status …" for
// HTTP errors (docs/rustfs-wire.md §4.3).
func (e *Emulator) remoteCall(ctx context.Context, t TierRecord, method, path string, q url.Values, body []byte) ([]byte, error) {
	base, err := url.Parse(t.Endpoint)
	if err != nil {
		return nil, err
	}
	u := *base
	u.Path = strings.TrimRight(base.Path, "/") + path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	region := t.Region
	if region == "" {
		region = DefaultRegion
	}
	e.signOutbound(req, body, t.AccessKey, t.SecretKey, region)
	resp, err := e.remote.Do(req)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, errProbeTimeout
	}
	if err != nil {
		return nil, errors.New("client error (Connect)")
	}
	defer resp.Body.Close() //nolint:errcheck // read-only
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxS3Body))
	if resp.StatusCode/100 != 2 {
		var x errorXML
		_ = xml.Unmarshal(data, &x)
		return nil, fmt.Errorf("remote tier request failed with status %d %s: %s",
			resp.StatusCode, http.StatusText(resp.StatusCode), x.Code)
	}
	return data, nil
}

// signOutbound signs req with the emulator's own SigV4 code (signed payload).
func (e *Emulator) signOutbound(req *http.Request, body []byte, accessKey, secretKey, region string) {
	now := e.now().UTC()
	sum := sha256.Sum256(body)
	payload := hex.EncodeToString(sum[:])
	amzDate := now.Format(amzDateFormat)
	req.Header.Set("X-Amz-Date", amzDate)
	req.Header.Set("X-Amz-Content-Sha256", payload)
	req.Host = req.URL.Host
	h := authHeader{accessKey: accessKey, date: amzDate[:8], region: region, service: "s3",
		signedHeaders: []string{"host", "x-amz-content-sha256", "x-amz-date"}}
	sig := expectedSignature(req, h, secretKey, amzDate, payload)
	req.Header.Set("Authorization", fmt.Sprintf("%s Credential=%s/%s/%s/s3/aws4_request, SignedHeaders=%s, Signature=%s",
		sigAlgorithm, accessKey, h.date, region, strings.Join(h.signedHeaders, ";"), sig))
}

// remotePrefix is the prefix the in-use probe lists: a trailing "/" stripped
// (rustfs/minio/…) or "/" trimmed on both sides (s3) (docs/rustfs-wire.md §4).
func remotePrefix(t TierRecord) string {
	if t.Type == "s3" {
		return strings.Trim(t.Prefix, "/")
	}
	return strings.TrimSuffix(t.Prefix, "/")
}

// remoteInUse is WarmBackendS3::in_use (docs/rustfs-wire.md §4): when the region is empty a
// GET ?location first, then one ListObjectsV2 with max-keys=1 and delimiter
// "/" on the prefix; any Contents or CommonPrefixes means in use.
func (e *Emulator) remoteInUse(ctx context.Context, t TierRecord) (bool, error) {
	if t.Region == "" {
		if _, err := e.remoteCall(ctx, t, http.MethodGet, "/"+t.Bucket, url.Values{"location": {""}}, nil); err != nil {
			return false, err
		}
	}
	q := url.Values{"list-type": {"2"}, "encoding-type": {"url"}, "prefix": {remotePrefix(t)},
		"delimiter": {"/"}, "max-keys": {"1"}}
	data, err := e.remoteCall(ctx, t, http.MethodGet, "/"+t.Bucket, q, nil)
	if err != nil {
		return false, err
	}
	var res struct {
		Contents       []struct{ Key string } `xml:"Contents"`
		CommonPrefixes []struct{ Prefix string }
	}
	if err := xml.Unmarshal(data, &res); err != nil {
		return false, err
	}
	return len(res.Contents)+len(res.CommonPrefixes) > 0, nil
}

// remoteProbe is check_warm_backend (docs/rustfs-wire.md §1.5): PUT, GET and DELETE of
// <prefix>/probeobject on the remote.
func (e *Emulator) remoteProbe(ctx context.Context, t TierRecord) error {
	key := probeObject
	if p := strings.Trim(t.Prefix, "/"); p != "" {
		key = p + "/" + probeObject
	}
	path := "/" + t.Bucket + "/" + key
	for _, m := range []string{http.MethodPut, http.MethodGet, http.MethodDelete} {
		var body []byte
		if m == http.MethodPut {
			body = []byte("RustFS")
		}
		if _, err := e.remoteCall(ctx, t, m, path, nil, body); err != nil {
			return err
		}
	}
	return nil
}

// probeContext bounds a remote validation like TIER_REMOTE_VALIDATION_TIMEOUT.
func (e *Emulator) probeContext(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, e.probeWait)
}
