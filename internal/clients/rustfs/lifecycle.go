package rustfs

import (
	"context"
	"encoding/xml"
	"net/http"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A LifecycleAPI reads and replaces a bucket's lifecycle configuration.
type LifecycleAPI interface {
	GetLifecycle(ctx context.Context, bucket string) (*Lifecycle, error)
	PutLifecycle(ctx context.Context, bucket string, l *Lifecycle) error
	DeleteLifecycle(ctx context.Context, bucket string) error
}

var _ LifecycleAPI = &Client{}

// A Lifecycle is a bucket lifecycle configuration with the RustFS/MinIO
// extensions (docs/rustfs-wire.md §8.1). Optional numbers and booleans are
// pointers so that 0 and absent differ; dates are kept exactly as on the wire.
type Lifecycle struct {
	XMLName xml.Name        `xml:"LifecycleConfiguration"`
	Rules   []LifecycleRule `xml:"Rule"`
}

// A LifecycleRule is one <Rule>. Absent elements are omitted on output.
type LifecycleRule struct {
	ID                             string                          `xml:"ID,omitempty"`
	Status                         string                          `xml:"Status"`
	Prefix                         *string                         `xml:"Prefix"` // legacy top-level prefix
	Filter                         *LifecycleFilter                `xml:"Filter"`
	Expiration                     *Expiration                     `xml:"Expiration"`
	Transitions                    []Transition                    `xml:"Transition"`
	NoncurrentVersionTransitions   []NoncurrentVersionTransition   `xml:"NoncurrentVersionTransition"`
	NoncurrentVersionExpiration    *NoncurrentVersionExpiration    `xml:"NoncurrentVersionExpiration"`
	AbortIncompleteMultipartUpload *AbortIncompleteMultipartUpload `xml:"AbortIncompleteMultipartUpload"`
	DelMarkerExpiration            *DelMarkerExpiration            `xml:"DelMarkerExpiration"`
}

// A LifecycleFilter selects the objects a rule applies to.
type LifecycleFilter struct {
	Prefix                *string       `xml:"Prefix"`
	Tag                   *Tag          `xml:"Tag"`
	And                   *LifecycleAnd `xml:"And"`
	ObjectSizeGreaterThan *int64        `xml:"ObjectSizeGreaterThan"`
	ObjectSizeLessThan    *int64        `xml:"ObjectSizeLessThan"`
}

// A LifecycleAnd combines a prefix, tags and size bounds.
type LifecycleAnd struct {
	Prefix                *string `xml:"Prefix"`
	Tags                  []Tag   `xml:"Tag"`
	ObjectSizeGreaterThan *int64  `xml:"ObjectSizeGreaterThan"`
	ObjectSizeLessThan    *int64  `xml:"ObjectSizeLessThan"`
}

// A Tag is an object tag key and value.
type Tag struct {
	Key   string `xml:"Key"`
	Value string `xml:"Value"`
}

// An Expiration expires current versions.
type Expiration struct {
	Days                      *int32 `xml:"Days"`
	Date                      string `xml:"Date,omitempty"`
	ExpiredObjectDeleteMarker *bool  `xml:"ExpiredObjectDeleteMarker"`
	ExpiredObjectAllVersions  *bool  `xml:"ExpiredObjectAllVersions"`
}

// A Transition moves current versions to a tier (its StorageClass). Days 0
// is valid (docs/rustfs-wire.md §8.2).
type Transition struct {
	Days         *int32 `xml:"Days"`
	Date         string `xml:"Date,omitempty"`
	StorageClass string `xml:"StorageClass"`
}

// A NoncurrentVersionTransition moves noncurrent versions to a tier.
type NoncurrentVersionTransition struct {
	NoncurrentDays          *int32 `xml:"NoncurrentDays"`
	NewerNoncurrentVersions *int32 `xml:"NewerNoncurrentVersions"`
	StorageClass            string `xml:"StorageClass"`
}

// A NoncurrentVersionExpiration expires noncurrent versions.
type NoncurrentVersionExpiration struct {
	NoncurrentDays          *int32 `xml:"NoncurrentDays"`
	NewerNoncurrentVersions *int32 `xml:"NewerNoncurrentVersions"`
}

// An AbortIncompleteMultipartUpload aborts stale multipart uploads.
type AbortIncompleteMultipartUpload struct {
	DaysAfterInitiation *int32 `xml:"DaysAfterInitiation"`
}

// A DelMarkerExpiration removes delete markers (MinIO extension).
type DelMarkerExpiration struct {
	Days *int32 `xml:"Days"`
}

// encodeLifecycle renders l as the PUT body.
func encodeLifecycle(l *Lifecycle) ([]byte, error) {
	out := *l
	out.XMLName = xml.Name{Local: "LifecycleConfiguration"}
	b, err := xml.Marshal(out)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode lifecycle configuration")
	}
	return append([]byte(xml.Header), b...), nil
}

// decodeLifecycle parses a GET body. XMLName is cleared so that decoded and
// hand-built configurations compare equal.
func decodeLifecycle(body []byte) (*Lifecycle, error) {
	if err := withinBudget(body, '<', maxLifecycleElements); err != nil {
		return nil, errors.Wrap(err, "cannot decode lifecycle configuration")
	}
	if n := countRules(body); n > maxLifecycleRules {
		return nil, errors.Errorf("cannot decode lifecycle configuration: it has %d rules, more than the %d S3 allows", n, maxLifecycleRules)
	}
	l := &Lifecycle{}
	if err := xml.Unmarshal(body, l); err != nil {
		return nil, errors.Wrap(err, "cannot decode lifecycle configuration")
	}
	l.XMLName = xml.Name{}
	return l, nil
}

// GetLifecycle returns the bucket's lifecycle configuration. When none is set
// the error satisfies IsNoSuchLifecycle (docs/rustfs-wire.md §8.1). RustFS assigns
// IDs to rules without one and re-renders dates in its own format, so callers
// compare normalised configurations.
func (c *Client) GetLifecycle(ctx context.Context, bucket string) (*Lifecycle, error) {
	p, raw := bucketPath(bucket)
	resp, err := c.do(ctx, request{op: OpGetLifecycle, method: http.MethodGet, path: p, rawPath: raw, query: sub("lifecycle")})
	if err != nil {
		return nil, errors.Wrapf(err, "cannot get lifecycle of bucket %q", bucket)
	}
	l, err := decodeLifecycle(resp.body)
	return l, c.scrub(errors.Wrapf(err, "cannot get lifecycle of bucket %q", bucket))
}

// PutLifecycle replaces the bucket's lifecycle configuration.
func (c *Client) PutLifecycle(ctx context.Context, bucket string, l *Lifecycle) error {
	if l == nil {
		return errors.Errorf("cannot put lifecycle of bucket %q: no configuration", bucket)
	}
	body, err := encodeLifecycle(l)
	if err != nil {
		return err
	}
	p, raw := bucketPath(bucket)
	_, err = c.do(ctx, request{op: OpPutLifecycle, method: http.MethodPut, path: p, rawPath: raw, query: sub("lifecycle"),
		body: body, contentType: xmlType, contentMD5: true})
	return errors.Wrapf(err, "cannot put lifecycle of bucket %q", bucket)
}

// DeleteLifecycle removes the bucket's lifecycle configuration; RustFS
// answers 204 whether or not one was set (docs/rustfs-wire.md §8.1).
func (c *Client) DeleteLifecycle(ctx context.Context, bucket string) error {
	p, raw := bucketPath(bucket)
	_, err := c.do(ctx, request{op: OpDeleteLifecycle, method: http.MethodDelete, path: p, rawPath: raw, query: sub("lifecycle")})
	return errors.Wrapf(err, "cannot delete lifecycle of bucket %q", bucket)
}
