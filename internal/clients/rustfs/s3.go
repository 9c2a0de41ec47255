package rustfs

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/url"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A VersioningStatus is a bucket's versioning state: "" (never enabled),
// "Enabled" or "Suspended".
type VersioningStatus string

// The versioning states.
const (
	VersioningUnset     VersioningStatus = ""
	VersioningEnabled   VersioningStatus = "Enabled"
	VersioningSuspended VersioningStatus = "Suspended"
)

// CreateBucketOptions are the create-time settings of a bucket.
type CreateBucketOptions struct {
	Region     string // sent as LocationConstraint unless empty or us-east-1
	ObjectLock bool   // sent as x-amz-bucket-object-lock-enabled: true
}

// A BucketAPI manages buckets through the S3 API.
type BucketAPI interface {
	BucketExists(ctx context.Context, bucket string) (bool, error)
	CreateBucket(ctx context.Context, bucket string, o CreateBucketOptions) error
	GetBucketLocation(ctx context.Context, bucket string) (string, error)
	GetObjectLockEnabled(ctx context.Context, bucket string) (bool, error)
	GetVersioning(ctx context.Context, bucket string) (VersioningStatus, error)
	SetVersioning(ctx context.Context, bucket string, s VersioningStatus) error
}

var _ BucketAPI = &Client{}

const (
	s3Namespace = "http://s3.amazonaws.com/doc/2006-03-01/"
	xmlType     = "application/xml"
)

func bucketPath(bucket string) (string, string) { return "/" + bucket, "/" + url.PathEscape(bucket) }

func sub(name string) url.Values { return url.Values{name: {""}} }

// BucketExists reports whether the bucket exists (HEAD; 404 means no).
func (c *Client) BucketExists(ctx context.Context, bucket string) (bool, error) {
	p, raw := bucketPath(bucket)
	_, err := c.do(ctx, request{op: OpHeadBucket, method: http.MethodHead, path: p, rawPath: raw})
	if IsNoSuchBucket(err) {
		return false, nil
	}
	if err != nil {
		return false, errors.Wrapf(err, "cannot check bucket %q", bucket)
	}
	return true, nil
}

type createBucketConfiguration struct {
	XMLName            xml.Name `xml:"CreateBucketConfiguration"`
	Xmlns              string   `xml:"xmlns,attr"`
	LocationConstraint string   `xml:"LocationConstraint"`
}

// CreateBucket creates a bucket. An existing bucket owned by the caller is
// success (RustFS answers 200, AWS and MinIO 409 BucketAlreadyOwnedByYou).
func (c *Client) CreateBucket(ctx context.Context, bucket string, o CreateBucketOptions) error {
	p, raw := bucketPath(bucket)
	rq := request{op: OpCreateBucket, method: http.MethodPut, path: p, rawPath: raw, header: http.Header{}}
	if o.Region != "" && o.Region != DefaultRegion {
		body, err := xml.Marshal(createBucketConfiguration{Xmlns: s3Namespace, LocationConstraint: o.Region})
		if err != nil {
			return errors.Wrap(err, "cannot encode bucket configuration")
		}
		rq.body, rq.contentType = body, xmlType
	}
	if o.ObjectLock {
		rq.header.Set("X-Amz-Bucket-Object-Lock-Enabled", "true")
	}
	_, err := c.do(ctx, rq)
	if e, ok := apiError(err); ok && e.Code == "BucketAlreadyOwnedByYou" {
		return nil
	}
	return errors.Wrapf(err, "cannot create bucket %q", bucket)
}

// GetBucketLocation returns the bucket's region; an empty answer means us-east-1.
func (c *Client) GetBucketLocation(ctx context.Context, bucket string) (string, error) {
	var out struct {
		Location string `xml:",chardata"`
	}
	if err := c.getXML(ctx, OpBucketLocation, bucket, "location", &out); err != nil {
		return "", errors.Wrapf(err, "cannot get location of bucket %q", bucket)
	}
	if out.Location == "" {
		return DefaultRegion, nil
	}
	return out.Location, nil
}

// GetObjectLockEnabled reports whether object lock is enabled on the bucket.
// A bucket without an object-lock configuration gives false and no error.
func (c *Client) GetObjectLockEnabled(ctx context.Context, bucket string) (bool, error) {
	var out struct {
		ObjectLockEnabled string `xml:"ObjectLockEnabled"`
	}
	err := c.getXML(ctx, OpObjectLock, bucket, "object-lock", &out)
	if e, ok := apiError(err); ok && (e.Code == "ObjectLockConfigurationNotFoundError" || e.Code == "NoSuchObjectLockConfiguration") {
		return false, nil
	}
	if err != nil {
		return false, errors.Wrapf(err, "cannot get object-lock configuration of bucket %q", bucket)
	}
	return out.ObjectLockEnabled == "Enabled", nil
}

type versioningConfiguration struct {
	XMLName xml.Name `xml:"VersioningConfiguration"`
	Xmlns   string   `xml:"xmlns,attr,omitempty"`
	Status  string   `xml:"Status,omitempty"`
}

// GetVersioning returns the bucket's versioning state.
func (c *Client) GetVersioning(ctx context.Context, bucket string) (VersioningStatus, error) {
	var out versioningConfiguration
	if err := c.getXML(ctx, OpGetVersioning, bucket, "versioning", &out); err != nil {
		return "", errors.Wrapf(err, "cannot get versioning of bucket %q", bucket)
	}
	return VersioningStatus(out.Status), nil
}

// SetVersioning sets the bucket's versioning state to Enabled or Suspended.
func (c *Client) SetVersioning(ctx context.Context, bucket string, s VersioningStatus) error {
	if s != VersioningEnabled && s != VersioningSuspended {
		return errors.Errorf("cannot set versioning of bucket %q to %q: want Enabled or Suspended", bucket, s)
	}
	body, err := xml.Marshal(versioningConfiguration{Xmlns: s3Namespace, Status: string(s)})
	if err != nil {
		return errors.Wrap(err, "cannot encode versioning configuration")
	}
	p, raw := bucketPath(bucket)
	_, err = c.do(ctx, request{op: OpPutVersioning, method: http.MethodPut, path: p, rawPath: raw, query: sub("versioning"),
		body: body, contentType: xmlType, contentMD5: true})
	return errors.Wrapf(err, "cannot set versioning of bucket %q", bucket)
}

// getXML GETs a bucket subresource as operation op and decodes its XML body into out.
func (c *Client) getXML(ctx context.Context, op, bucket, subresource string, out any) error {
	p, raw := bucketPath(bucket)
	resp, err := c.do(ctx, request{op: op, method: http.MethodGet, path: p, rawPath: raw, query: sub(subresource)})
	if err != nil {
		return err
	}
	return c.scrub(errors.Wrapf(xml.Unmarshal(resp.body, out), "cannot decode %s response", subresource))
}
