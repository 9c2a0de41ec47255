package bucket

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

func noBytes() *resource.Quantity { return resource.NewQuantity(0, resource.BinarySI) }

func withQuotaOf(q string) bucketModifier {
	return func(b *v1alpha1.Bucket) {
		if q == "" {
			b.Spec.ForProvider.Quota = nil
			return
		}
		v := resource.MustParse(q)
		b.Spec.ForProvider.Quota = &v
	}
}

// The quota is set at create, changed, cleared and corrected when someone
// changes it in RustFS, each with one admin write; a Bucket that asks for
// no quota on a bucket without one writes nothing.
func TestQuota(t *testing.T) {
	cases := map[string]struct {
		reason    string
		exists    bool
		live      uint64 // the quota set in RustFS out of band before the edit
		first     string // the spec's quota at creation ("" none)
		then      string // the spec's quota after the edit
		wantLimit uint64
		wantSets  int
		wantClear int
	}{
		"SetAtCreate": {reason: "A new bucket gets its quota right after creation.",
			first: "1Mi", then: "1Mi", wantLimit: 1 << 20, wantSets: 1},
		"Changed": {reason: "A changed quota is set again.",
			first: "1Mi", then: "2Mi", wantLimit: 2 << 20, wantSets: 2},
		"Cleared": {reason: "Removing the quota from the spec clears it.",
			first: "1Mi", then: "", wantLimit: 0, wantSets: 1, wantClear: 1},
		"DriftCorrected": {reason: "A quota changed in RustFS is set back.",
			first: "1Mi", then: "1Mi", live: 5 << 20, wantLimit: 1 << 20, wantSets: 2},
		"DriftClearedWhenNone": {reason: "A quota set in RustFS on a bucket that asks for none is cleared.",
			exists: true, first: "", then: "", live: 5 << 20, wantLimit: 0, wantClear: 1},
		"NoneStaysNone": {reason: "No quota asked and none set: no write.",
			exists: true, first: "", then: ""},
		"RoundedUp": {reason: "A fraction of a byte is rounded up.",
			first: "1500m", then: "1500m", wantLimit: 2, wantSets: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, "")
			if tc.exists {
				h.rfs.CreateBucket(bucketName, false)
			}
			b := h.converge(h.store(bucket(withQuotaOf(tc.first))), 4)
			if tc.live > 0 {
				h.rfs.SetBucketQuota(bucketName, tc.live)
			}
			b = h.converge(h.edit(b, withQuotaOf(tc.then)), 4)
			if got := h.rfs.BucketQuota(bucketName); got != tc.wantLimit {
				t.Errorf("%s\nlimit in RustFS: want %d, got %d", tc.reason, tc.wantLimit, got)
			}
			if s, c := h.rfs.Count(rustfstest.RouteSetQuota), h.rfs.Count(rustfstest.RouteClearQuota); s != tc.wantSets || c != tc.wantClear {
				t.Errorf("%s\nquota writes: want %d sets and %d clears, got %d and %d", tc.reason, tc.wantSets, tc.wantClear, s, c)
			}
			if got := b.Status.AtProvider.Quota; (got == nil) != (tc.wantLimit == 0) || got != nil && uint64(got.Value()) != tc.wantLimit {
				t.Errorf("%s\nstatus.atProvider.quota: want %d bytes, got %v", tc.reason, tc.wantLimit, got)
			}
		})
	}
}

// Status shows the usage RustFS reports, every version counted, and a PUT
// over the limit is refused: the quota holds.
func TestQuotaUsageAndEnforcement(t *testing.T) {
	h := newHarness(t, "")
	b := h.converge(h.store(bucket(withVersioning(v1alpha1.VersioningEnabled), withQuotaOf("1Ki"))), 4)
	h.rfs.PutObject(bucketName, "a", make([]byte, 300))
	h.rfs.PutObject(bucketName, "a", make([]byte, 300))
	b = h.converge(h.edit(b, func(*v1alpha1.Bucket) {}), 2)
	if got := b.Status.AtProvider.Usage; got == nil || got.Value() != 600 {
		t.Errorf("status.atProvider.usage: want 600 bytes (a noncurrent version counts), got %v", got)
	}
	if h.rfs.BucketUsage(bucketName) != 600 {
		t.Fatalf("emulator usage: want 600, got %d", h.rfs.BucketUsage(bucketName))
	}
	if status := putStatus(t, h.rfs.URL(), bucketName, "b", 500); status != 400 {
		t.Errorf("PUT over the quota: want 400, got %d", status)
	}
	if status := putStatus(t, h.rfs.URL(), bucketName, "b", 400); status != 200 {
		t.Errorf("PUT within the quota: want 200, got %d", status)
	}
}

// putStatus PUTs n bytes to key in bucket with the AWS SDK, as a user
// of the bucket would, and returns the HTTP status of the answer.
func putStatus(t *testing.T, url, bucket, key string, n int) int {
	t.Helper()
	c := s3.New(s3.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true,
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: adminAK, SecretAccessKey: adminSK}, nil
		}),
	})
	_, err := c.PutObject(ctx(t), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(make([]byte, n))})
	var re *awshttp.ResponseError
	switch {
	case err == nil:
		return 200
	case errors.As(err, &re):
		return re.HTTPStatusCode()
	}
	t.Fatalf("PUT: %v", err)
	return 0
}
