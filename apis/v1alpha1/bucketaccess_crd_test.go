package v1alpha1_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// bucketAccess returns an unstructured BucketAccess in namespace default
// with the given buckets and, unless secret is empty, a connection Secret.
func bucketAccess(name, secret string, buckets ...map[string]any) *unstructured.Unstructured {
	list := make([]any, len(buckets))
	for i, b := range buckets {
		list[i] = b
	}
	spec := map[string]any{"forProvider": map[string]any{"buckets": list}}
	if secret != "" {
		spec["writeConnectionSecretToRef"] = map[string]any{"name": secret}
	}
	u := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	u.SetGroupVersionKind(v1alpha1.BucketAccessGroupVersionKind)
	u.SetNamespace("default")
	u.SetName(name)
	return u
}

func grant(kv ...string) map[string]any {
	m := map[string]any{"access": "ReadOnly"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// What a BucketAccess may name is checked at admission, with a message that
// says what to change.
func TestBucketAccessAdmission(t *testing.T) {
	testenv.Skip(t)
	many := make([]map[string]any, 33)
	for i := range many {
		many[i] = grant("bucket", fmt.Sprintf("bkt-%d", i))
	}
	cases := map[string]struct {
		reason  string
		secret  string
		buckets []map[string]any
		want    string
	}{
		"Valid": {reason: "A bucket, a reference and a prefixed grant of one bucket are accepted.", secret: "app",
			buckets: []map[string]any{grant("bucket", "team-a-data"), grant("bucket", "team-a-data", "prefix", "uploads/", "access", "ReadWrite"),
				{"bucketRef": map[string]any{"name": "logs"}, "access": "ReadWrite"}}},
		"NoSecret":       {reason: "The secret key is published only in the connection Secret.", buckets: []map[string]any{grant("bucket", "bkt-1")}, want: "writeConnectionSecretToRef is required"},
		"NoBuckets":      {reason: "A key needs at least one bucket.", secret: "app", want: "spec.forProvider.buckets"},
		"TooManyBuckets": {reason: "A session policy holds a few dozen grants.", secret: "app", buckets: many, want: "must have at most 32 items"},
		"NoBucketNamed":  {reason: "A grant names a bucket.", secret: "app", buckets: []map[string]any{{"access": "ReadOnly"}}, want: "set bucket, bucketRef or bucketSelector"},
		"NoAccess":       {reason: "The access level is required.", secret: "app", buckets: []map[string]any{{"bucket": "bkt-1"}}, want: "access: Required value"},
		"UnknownAccess":  {reason: "Only ReadOnly and ReadWrite.", secret: "app", buckets: []map[string]any{{"bucket": "bkt-1", "access": "Admin"}}, want: "Unsupported value"},
		"Duplicate":      {reason: "The same bucket and prefix twice is ambiguous.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1"), grant("bucket", "bkt-1", "access", "ReadWrite")}, want: "must not name the same bucket and prefix twice"},
		"OtherNamespace": {reason: "References never leave the namespace.", secret: "app", buckets: []map[string]any{{"bucketRef": map[string]any{"name": "x", "namespace": "team-b"}, "access": "ReadOnly"}}, want: "bucketRef must name a Bucket in the same namespace"},
		"SelectorOther":  {reason: "Selectors never leave the namespace.", secret: "app", buckets: []map[string]any{{"bucketSelector": map[string]any{"namespace": "team-b"}, "access": "ReadOnly"}}, want: "bucketSelector must select Buckets in the same namespace"},
		"Optional":       {reason: "An optional reference would grant nothing.", secret: "app", buckets: []map[string]any{{"bucketRef": map[string]any{"name": "x", "policy": map[string]any{"resolution": "Optional"}}, "access": "ReadOnly"}}, want: "must not set policy.resolution Optional"},
		"Wildcard":       {reason: "A wildcard would widen the grant.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "a*")}, want: "must not contain '*', '?' or '$'"},
		"Variable":       {reason: "A policy variable would widen the grant.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "${aws:username}/")}, want: "must not contain '*', '?' or '$'"},
		"LeadingSlash":   {reason: "Keys have no leading slash.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "/a")}, want: "must not start with '/'"},
		"DotDot":         {reason: "RustFS cleans paths.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "a/../b")}, want: "must not contain '.' or '..' segments"},
		"Dot":            {reason: "RustFS cleans paths.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "./a")}, want: "must not contain '.' or '..' segments"},
		"DoubleSlash":    {reason: "RustFS cleans paths.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "a//b")}, want: "must not contain '.' or '..' segments or '//'"},
		"ControlChar":    {reason: "Control characters never match a key.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "a\tb")}, want: "must not contain control characters"},
		"DotsInNames":    {reason: "Dots inside a segment are ordinary characters.", secret: "app", buckets: []map[string]any{grant("bucket", "bkt-1", "prefix", "v1.2/..x/")}},
		"AdjacentPeriods": {reason: "Every field that names a bucket carries the bucket naming rules (naming.Bucket): RustFS refuses this name.", secret: "app", buckets: []map[string]any{grant("bucket", "app..data")},
			want: "spec.forProvider.buckets[0].bucket: Invalid value: \"app..data\": bucket must not contain two adjacent periods"},
		"ShortBucketName": {reason: "Bucket names have at least 3 characters.", secret: "app", buckets: []map[string]any{grant("bucket", "ab")}, want: "should be at least 3 chars long"},
		"LongBucketName":  {reason: "Bucket names are at most 63 characters.", secret: "app", buckets: []map[string]any{grant("bucket", strings.Repeat("b", 64))}, want: "Too long"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ba := bucketAccess("ba-"+strings.ToLower(name), tc.secret, tc.buckets...)
			wantAdmission(t, env.Client.Create(context.Background(), ba), tc.want)
		})
	}
}

// BucketAccess is not Retain-only: it defaults to every management policy,
// so that deleting it revokes the key, while the other kinds keep their
// Retain-only default.
func TestBucketAccessDefaultsToEveryPolicy(t *testing.T) {
	testenv.Skip(t)
	ctx := context.Background()
	ba := bucketAccess("ba-policies", "app", grant("bucket", "bkt-1"))
	if err := env.Client.Create(ctx, ba); err != nil {
		t.Fatal(err)
	}
	got := &v1alpha1.BucketAccess{}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(ba), got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("[*]", fmt.Sprint(got.Spec.ManagementPolicies)); diff != "" {
		t.Errorf("BucketAccess managementPolicies default: -want +got:\n%s", diff)
	}
	b := &v1alpha1.Bucket{}
	b.SetNamespace("default")
	b.SetName("policies-bucket")
	if err := env.Client.Create(ctx, b); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("[Observe Create Update LateInitialize]", fmt.Sprint(b.Spec.ManagementPolicies)); diff != "" {
		t.Errorf("Bucket managementPolicies default: -want +got:\n%s", diff)
	}
}
