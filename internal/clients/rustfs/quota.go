package rustfs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A BucketQuota is a bucket's hard limit and usage as RustFS reports them
// (docs/rustfs-wire.md §21.3).
type BucketQuota struct {
	Limit uint64 // bytes; 0 when the bucket has no limit
	Usage uint64 // bytes of every version, as the data-usage scanner last counted them
}

// A QuotaAPI reads and writes bucket quotas through the admin API.
type QuotaAPI interface {
	GetBucketQuota(ctx context.Context, bucket string) (BucketQuota, error)
	SetBucketQuota(ctx context.Context, bucket string, limit uint64) error
	ClearBucketQuota(ctx context.Context, bucket string) error
}

var _ QuotaAPI = &Client{}

// quotaPath returns the path of the bucket's quota route.
func quotaPath(bucket string) (string, string) {
	return adminPrefix + "/quota/" + bucket, adminPrefix + "/quota/" + url.PathEscape(bucket)
}

// quotaJSON is the quota routes' answer: size is the usage on these routes
// (and the limit on the compatible get-bucket-quota path, which the client
// does not use; docs/rustfs-wire.md §21.3).
type quotaJSON struct {
	Quota *uint64 `json:"quota"`
	Size  uint64  `json:"size"`
}

// GetBucketQuota returns the bucket's limit and usage. A missing bucket is
// 404 NoSuchBucket; usage not computed yet is 503, a transient failure.
func (c *Client) GetBucketQuota(ctx context.Context, bucket string) (BucketQuota, error) {
	p, raw := quotaPath(bucket)
	resp, err := c.do(ctx, request{op: OpGetQuota, method: http.MethodGet, path: p, rawPath: raw})
	if err != nil {
		return BucketQuota{}, errors.Wrapf(err, "cannot get the quota of bucket %q", bucket)
	}
	var q quotaJSON
	if err := json.Unmarshal(resp.body, &q); err != nil {
		return BucketQuota{}, errors.Wrapf(err, "cannot decode the quota of bucket %q", bucket)
	}
	out := BucketQuota{Usage: q.Size}
	if q.Quota != nil {
		out.Limit = *q.Quota
	}
	return out, nil
}

// SetBucketQuota sets the bucket's hard limit in bytes. RustFS takes 0 as
// "no limit" (docs/rustfs-wire.md §21.2), so 0 is refused here: clear a
// quota with ClearBucketQuota.
func (c *Client) SetBucketQuota(ctx context.Context, bucket string, limit uint64) error {
	if limit == 0 {
		return errors.Errorf("cannot set a quota of 0 on bucket %q: RustFS reads 0 as no limit", bucket)
	}
	body, err := json.Marshal(map[string]any{"quota": limit, "quota_type": "HARD"})
	if err != nil {
		return err
	}
	p, raw := quotaPath(bucket)
	_, err = c.do(ctx, request{op: OpSetQuota, method: http.MethodPut, path: p, rawPath: raw, body: body, contentType: jsonType})
	return errors.Wrapf(err, "cannot set the quota of bucket %q", bucket)
}

// ClearBucketQuota removes the bucket's limit.
func (c *Client) ClearBucketQuota(ctx context.Context, bucket string) error {
	p, raw := quotaPath(bucket)
	_, err := c.do(ctx, request{op: OpClearQuota, method: http.MethodDelete, path: p, rawPath: raw})
	return errors.Wrapf(err, "cannot clear the quota of bucket %q", bucket)
}
