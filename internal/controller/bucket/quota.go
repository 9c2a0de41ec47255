package bucket

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// A quota is a bucket's hard limit in bytes (0: none) and, for a live
// bucket, its usage when RustFS reported it.
type quota struct {
	Limit uint64
	Usage *uint64
	// Unknown is set when RustFS did not answer the quota read: nothing is
	// compared then.
	Unknown bool
}

// wantQuota returns the limit the spec asks for: its quota in bytes,
// rounded up to a whole byte, or 0 for none.
func wantQuota(p v1alpha1.BucketParameters) quota {
	if p.Quota == nil || p.Quota.Sign() <= 0 {
		return quota{}
	}
	return quota{Limit: uint64(p.Quota.Value())}
}

// liveQuota reads the bucket's limit and usage. A bucket that asks for no
// quota does not depend on the read: when it fails (RustFS answers 503
// until its scanner computed the usage, or the credentials lack
// s3:GetBucketQuota) the quota is Unknown and nothing is corrected.
func (e *external) liveQuota(ctx context.Context, name string, want quota) (quota, error) {
	q, err := e.client.GetBucketQuota(ctx, name)
	switch {
	case err == nil:
		u := q.Usage
		return quota{Limit: q.Limit, Usage: &u}, nil
	case want.Limit == 0:
		return quota{Unknown: true}, nil
	}
	return quota{}, errors.Wrap(err, "cannot observe the bucket's quota")
}

// quotaDiff describes how the quota must change, or returns "".
func quotaDiff(want, got quota) string {
	if got.Unknown || want.Limit == got.Limit {
		return ""
	}
	return fmt.Sprintf("spec.forProvider.quota: live %s, desired %s", bytesOrNone(got.Limit), bytesOrNone(want.Limit))
}

func bytesOrNone(n uint64) string {
	if n == 0 {
		return "none"
	}
	return resource.NewQuantity(int64(n), resource.BinarySI).String()
}

// applyQuota sets or clears the bucket's limit as the spec asks.
func (e *external) applyQuota(ctx context.Context, name string, want quota) error {
	if want.Limit == 0 {
		return e.client.ClearBucketQuota(ctx, name)
	}
	return e.client.SetBucketQuota(ctx, name, want.Limit)
}

// withQuota adds the live quota and usage to an observation.
func withQuota(o v1alpha1.BucketObservation, got quota) v1alpha1.BucketObservation {
	if got.Limit > 0 {
		o.Quota = resource.NewQuantity(int64(got.Limit), resource.BinarySI)
	}
	if got.Usage != nil {
		o.Usage = resource.NewQuantity(int64(*got.Usage), resource.BinarySI)
	}
	return o
}

// joinDiffs joins the non-empty descriptions of what must change.
func joinDiffs(diffs ...string) string {
	var out []string
	for _, d := range diffs {
		if d != "" {
			out = append(out, d)
		}
	}
	return strings.Join(out, "; ")
}

// The client a Bucket uses: buckets, quotas and deletion.
type bucketClient interface {
	rustfs.BucketAPI
	rustfs.QuotaAPI
	rustfs.DeleteAPI
}
