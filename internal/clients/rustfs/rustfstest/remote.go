package rustfstest

import (
	"bytes"
	"context"
	"crypto/md5" // S3's Content-MD5 is MD5 by definition
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// errProbeTimeout is the 30 s remote validation deadline (docs/rustfs-wire.md §4.4): RustFS then
// answers as if the backend were in use.
var errProbeTimeout = errors.New("Timed out validating the remote tier mutation") // RustFS's text

// dnsLookupTypes address the remote bucket virtual-host style (docs/rustfs-wire.md §18).
var dnsLookupTypes = map[string]bool{"aliyun": true, "tencent": true, "huaweicloud": true, "azure": true}

// An s3Backend is how RustFS speaks S3 to a tier's remote (the warm
// backends of docs/rustfs-wire.md §18): SigV4 with the tier's keys and region, path or
// virtual-host addressing, objects under the tier's prefix.
type s3Backend struct {
	e       *Emulator
	t       TierRecord
	located bool
}

// A remoteAnswer is a successful remote response.
type remoteAnswer struct {
	body   []byte
	header http.Header
}

// call sends one signed request for key ("" for the bucket). Errors carry
// RustFS's texts: "client error (Connect)" for transport failures and
// "remote tier request failed with status …" for HTTP errors (docs/rustfs-wire.md §4.3).
func (b *s3Backend) call(ctx context.Context, method, key string, q url.Values, body []byte, hdr http.Header) (remoteAnswer, error) {
	if err := b.locate(ctx); err != nil {
		return remoteAnswer{}, err
	}
	return b.send(ctx, method, key, q, body, hdr)
}

// locate asks GET ?location once when the tier has no region, as RustFS's
// bucket-location cache does (docs/rustfs-wire.md §18).
func (b *s3Backend) locate(ctx context.Context) error {
	if b.t.Region != "" || b.located {
		return nil
	}
	b.located = true
	_, err := b.send(ctx, http.MethodGet, "", url.Values{"location": {""}}, nil, nil)
	return err
}

func (b *s3Backend) send(ctx context.Context, method, key string, q url.Values, body []byte, hdr http.Header) (remoteAnswer, error) {
	u, err := b.url(key, q)
	if err != nil {
		return remoteAnswer{}, err
	}
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return remoteAnswer{}, err
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	region := b.t.Region
	if region == "" {
		region = DefaultRegion
	}
	b.e.signOutbound(req, body, b.t.AccessKey, b.t.SecretKey, region)
	resp, err := b.e.remote.Do(req)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return remoteAnswer{}, errProbeTimeout
	}
	if err != nil {
		return remoteAnswer{}, errors.New("client error (Connect)")
	}
	defer resp.Body.Close() // read-only
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxS3Body))
	if resp.StatusCode/100 != 2 {
		var x errorXML
		_ = xml.Unmarshal(data, &x)
		return remoteAnswer{}, fmt.Errorf("remote tier request failed with status %d %s: %s",
			resp.StatusCode, http.StatusText(resp.StatusCode), x.Code)
	}
	return remoteAnswer{body: data, header: resp.Header}, nil
}

// url addresses key in the tier's bucket, virtual-host style for the types
// that use DNS bucket lookup, else path style.
func (b *s3Backend) url(key string, q url.Values) (string, error) {
	base, err := url.Parse(b.t.Endpoint)
	if err != nil {
		return "", err
	}
	u := *base
	p := strings.TrimRight(base.Path, "/")
	if dnsLookupTypes[b.t.Type] {
		u.Host = b.t.Bucket + "." + u.Host
		u.Path = p + "/" + key
	} else {
		u.Path = p + "/" + b.t.Bucket
		if key != "" {
			u.Path += "/" + key
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
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

// prefix is the tier prefix as the backend uses it: s3 and wasabi (which
// builds an s3 backend) trim "/" on both sides, the other types strip one
// trailing "/" (docs/rustfs-wire.md §18).
func (b *s3Backend) prefix() string {
	if b.t.Type == "s3" || b.t.Type == "wasabi" {
		return strings.Trim(b.t.Prefix, "/")
	}
	return strings.TrimSuffix(b.t.Prefix, "/")
}

// dest is get_dest: the object's key under the prefix.
func (b *s3Backend) dest(object string) string {
	if p := b.prefix(); p != "" {
		return p + "/" + object
	}
	return object
}

// inUse is WarmBackendS3::in_use (docs/rustfs-wire.md §18.1): one ListObjectsV2 with max-keys=1
// and delimiter "/" on the prefix, without a trailing slash; any Contents or
// CommonPrefixes means in use.
func (b *s3Backend) inUse(ctx context.Context) (bool, error) {
	q := url.Values{"list-type": {"2"}, "encoding-type": {"url"}, "prefix": {b.prefix()},
		"delimiter": {"/"}, "max-keys": {"1"}}
	a, err := b.call(ctx, http.MethodGet, "", q, nil, nil)
	if err != nil {
		return false, err
	}
	var res struct {
		Contents       []struct{ Key string } `xml:"Contents"`
		CommonPrefixes []struct{ Prefix string }
	}
	if err := xml.Unmarshal(a.body, &res); err != nil {
		return false, err
	}
	return len(res.Contents)+len(res.CommonPrefixes) > 0, nil
}

// validate is WarmBackend::validate: only Wasabi checks the remote, whose
// bucket must be unversioned (docs/rustfs-wire.md §2).
func (b *s3Backend) validate(ctx context.Context) error {
	if b.t.Type != "wasabi" {
		return nil
	}
	status, err := b.versioning(ctx)
	if err == nil && status != "" {
		err = errors.New("Wasabi tier bucket must be unversioned") // RustFS's text
	}
	return err
}

func (b *s3Backend) versioning(ctx context.Context) (string, error) {
	a, err := b.call(ctx, http.MethodGet, "", url.Values{"versioning": {""}}, nil, nil)
	if err != nil {
		return "", err
	}
	var v struct {
		Status    string `xml:"Status"`
		MFADelete string `xml:"MfaDelete"`
	}
	if err := xml.Unmarshal(a.body, &v); err != nil {
		return "", err
	}
	return v.Status + v.MFADelete, nil
}

// put writes an object with Content-MD5 and returns the version ID the
// remote answered, if any.
func (b *s3Backend) put(ctx context.Context, object string, body []byte) (string, error) {
	sum := md5.Sum(body)
	hdr := http.Header{"Content-Md5": {base64.StdEncoding.EncodeToString(sum[:])}}
	a, err := b.call(ctx, http.MethodPut, b.dest(object), nil, body, hdr)
	if err != nil {
		return "", err
	}
	return a.header.Get("X-Amz-Version-Id"), nil
}

// get reads the first n bytes of an object (one version, when given).
func (b *s3Backend) get(ctx context.Context, object, versionID string, n int) ([]byte, error) {
	q := url.Values{}
	if versionID != "" {
		q.Set("versionId", versionID)
	}
	hdr := http.Header{"Range": {"bytes=0-" + strconv.Itoa(n-1)}}
	a, err := b.call(ctx, http.MethodGet, b.dest(object), q, nil, hdr)
	return a.body, err
}

// remove deletes an object (exactly one version, when given).
func (b *s3Backend) remove(ctx context.Context, object, versionID string) error {
	q := url.Values{}
	if versionID != "" {
		q.Set("versionId", versionID)
	}
	_, err := b.call(ctx, http.MethodDelete, b.dest(object), q, nil, nil)
	return err
}
