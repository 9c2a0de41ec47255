package rustfs

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/url"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Contents count what a bucket holds, from one page of ListObjectVersions
// (docs/rustfs-wire.md §22.2): objects are current versions, noncurrent
// versions and delete markers the rest. More says the page was full, so
// there may be more.
type Contents struct {
	Objects, Noncurrent, DeleteMarkers int
	More                               bool
}

// Empty reports whether the page showed nothing at all.
func (c Contents) Empty() bool { return c.Objects+c.Noncurrent+c.DeleteMarkers == 0 && !c.More }

// A DeleteAPI deletes empty buckets.
type DeleteAPI interface {
	BucketContents(ctx context.Context, bucket string) (Contents, error)
	DeleteBucket(ctx context.Context, bucket string) error
}

var _ DeleteAPI = &Client{}

type listVersionsResult struct {
	IsTruncated bool `xml:"IsTruncated"`
	Versions    []struct {
		IsLatest bool `xml:"IsLatest"`
	} `xml:"Version"`
	DeleteMarkers []struct{} `xml:"DeleteMarker"`
}

// BucketContents reads one page of the bucket's versions and delete
// markers: enough to tell empty from not, and what holds it.
func (c *Client) BucketContents(ctx context.Context, bucket string) (Contents, error) {
	p, raw := bucketPath(bucket)
	q := url.Values{"versions": {""}, "max-keys": {"1000"}}
	resp, err := c.do(ctx, request{op: OpListVersions, method: http.MethodGet, path: p, rawPath: raw, query: q})
	if err != nil {
		return Contents{}, errors.Wrapf(err, "cannot list the versions of bucket %q", bucket)
	}
	var r listVersionsResult
	if err := xml.Unmarshal(resp.body, &r); err != nil {
		return Contents{}, errors.Wrapf(err, "cannot decode the versions of bucket %q", bucket)
	}
	out := Contents{DeleteMarkers: len(r.DeleteMarkers), More: r.IsTruncated}
	for _, v := range r.Versions {
		if v.IsLatest {
			out.Objects++
		} else {
			out.Noncurrent++
		}
	}
	return out, nil
}

// DeleteBucket deletes the bucket if it is empty. It never sends the
// force-delete header, which makes RustFS delete everything in the bucket
// (docs/rustfs-wire.md §22.1); a bucket that is not empty answers 409
// BucketNotEmpty (IsBucketNotEmpty).
func (c *Client) DeleteBucket(ctx context.Context, bucket string) error {
	p, raw := bucketPath(bucket)
	_, err := c.do(ctx, request{op: OpDeleteBucket, method: http.MethodDelete, path: p, rawPath: raw})
	return errors.Wrapf(err, "cannot delete bucket %q", bucket)
}

// IsBucketNotEmpty reports whether err is RustFS refusing to delete a
// bucket that holds anything (docs/rustfs-wire.md §22.2).
func IsBucketNotEmpty(err error) bool {
	e, ok := apiError(err)
	return ok && e.Code == "BucketNotEmpty"
}
