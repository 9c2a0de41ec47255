package rustfs

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// These tests prove what a key made by SessionPolicy and AddServiceAccount
// can do, through an independent S3 client (the AWS SDK for Go v2) against
// the emulator, which enforces session policies as RustFS does
// (docs/rustfs-wire.md §16.7).

// sdk returns an S3 client for the emulator with the given keys.
func sdk(url, ak, sk string) *s3.Client {
	return s3.New(s3.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true,
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: ak, SecretAccessKey: sk}, nil
		}),
	})
}

// code returns the S3 error code of err, or "" for success.
func code(err error) string {
	if err == nil {
		return ""
	}
	var e smithy.APIError
	if errors.As(err, &e) {
		return e.ErrorCode()
	}
	return "not an API error: " + err.Error()
}

// An op is one S3 call and the code it must end with ("" is success).
type op struct {
	name string
	call func(ctx context.Context, c *s3.Client) error
	want string
}

func listOp(bucket, prefix, want string) op {
	return op{"list " + bucket + "?prefix=" + prefix, func(ctx context.Context, c *s3.Client) error {
		in := &s3.ListObjectsV2Input{Bucket: aws.String(bucket)}
		if prefix != "" {
			in.Prefix = aws.String(prefix)
		}
		_, err := c.ListObjectsV2(ctx, in)
		return err
	}, want}
}

func getOp(bucket, key, want string) op {
	return op{"get " + bucket + "/" + key, func(ctx context.Context, c *s3.Client) error {
		out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
		if err == nil {
			_, err = io.Copy(io.Discard, out.Body)
			_ = out.Body.Close()
		}
		return err
	}, want}
}

func headOp(bucket, key, want string) op {
	return op{"head " + bucket + "/" + key, func(ctx context.Context, c *s3.Client) error {
		_, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
		return err
	}, want}
}

func putOp(bucket, key, want string) op {
	return op{"put " + bucket + "/" + key, func(ctx context.Context, c *s3.Client) error {
		_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: strings.NewReader("new")})
		return err
	}, want}
}

func deleteOp(bucket, key, want string) op {
	return op{"delete " + bucket + "/" + key, func(ctx context.Context, c *s3.Client) error {
		_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
		return err
	}, want}
}

func locationOp(bucket, want string) op {
	return op{"location " + bucket, func(ctx context.Context, c *s3.Client) error {
		_, err := c.GetBucketLocation(ctx, &s3.GetBucketLocationInput{Bucket: aws.String(bucket)})
		return err
	}, want}
}

const denied = "AccessDenied"

func TestGrantedKeysThroughAWSSDK(t *testing.T) {
	cases := map[string]struct {
		reason string
		grants []BucketGrant
		ops    []op
	}{
		"ReadOnly": {
			reason: "a ReadOnly key lists and reads its bucket, and cannot write or delete",
			grants: []BucketGrant{{Bucket: "team-x", Access: ReadOnly}},
			ops: []op{listOp("team-x", "", ""), getOp("team-x", "a/1.txt", ""), headOp("team-x", "a/1.txt", ""),
				locationOp("team-x", ""), putOp("team-x", "new.txt", denied), deleteOp("team-x", "a/1.txt", denied)},
		},
		"OtherBucket": {
			reason: "a key for bucket X gets AccessDenied on bucket Y",
			grants: []BucketGrant{{Bucket: "team-x", Access: ReadWrite}},
			ops: []op{listOp("team-y", "", denied), getOp("team-y", "a/1.txt", denied), putOp("team-y", "new.txt", denied),
				deleteOp("team-y", "a/1.txt", denied), locationOp("team-y", denied), listOp("team-x", "", "")},
		},
		"ReadOnlyPrefix": {
			reason: "a prefix-scoped key cannot list or read outside its prefix",
			grants: []BucketGrant{{Bucket: "team-x", Access: ReadOnly, Prefix: "a/"}},
			ops: []op{listOp("team-x", "a/", ""), listOp("team-x", "", denied), listOp("team-x", "b/", denied),
				getOp("team-x", "a/1.txt", ""), getOp("team-x", "b/1.txt", denied), putOp("team-x", "a/new.txt", denied)},
		},
		"ReadWritePrefix": {
			reason: "a ReadWrite prefix key writes and deletes only under its prefix",
			grants: []BucketGrant{{Bucket: "team-x", Access: ReadWrite, Prefix: "a/"}},
			ops: []op{putOp("team-x", "a/new.txt", ""), getOp("team-x", "a/new.txt", ""), deleteOp("team-x", "a/new.txt", ""),
				putOp("team-x", "b/new.txt", denied), deleteOp("team-x", "b/1.txt", denied), listOp("team-x", "b/", denied)},
		},
	}
	for mname, mode := range modes {
		for name, tc := range cases {
			t.Run(mname+"/"+name, func(t *testing.T) { checkGrant(t, mode, name, tc.reason, tc.grants, tc.ops) })
		}
	}
}

// checkGrant creates a key with grants on an emulator holding
// team-x/{a,b}/1.txt and team-y/a/1.txt and runs ops with it.
func checkGrant(t *testing.T, mode rustfstest.Mode, name, reason string, grants []BucketGrant, ops []op) {
	t.Helper()
	ctx := context.Background()
	p := newPair(t, mode)
	for _, k := range []string{"team-x/a/1.txt", "team-x/b/1.txt", "team-y/a/1.txt"} {
		bucket, key, _ := strings.Cut(k, "/")
		p.local.PutObject(bucket, key, []byte(k))
	}
	a := newAccount(t, DeriveAccessKey("ns", name), grants...)
	if err := p.client.AddServiceAccount(ctx, a); err != nil {
		t.Fatalf("AddServiceAccount: %v", err)
	}
	c := sdk(p.local.URL(), a.AccessKey, a.SecretKey)
	for _, o := range ops {
		if got := code(o.call(ctx, c)); got != o.want {
			t.Errorf("%s: %s: got %q, want %q", reason, o.name, got, o.want)
		}
	}
}

// After delete the key is unknown; after a secret-key update the old key no
// longer signs and the new one works.
func TestRevokedAndRotatedKeysThroughAWSSDK(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := newPair(t, mode)
			p.local.PutObject("data", "a.txt", []byte("a"))
			a := newAccount(t, DeriveAccessKey("ns", "rotate"))
			if err := p.client.AddServiceAccount(ctx, a); err != nil {
				t.Fatal(err)
			}
			get := getOp("data", "a.txt", "")
			if got := code(get.call(ctx, sdk(p.local.URL(), a.AccessKey, a.SecretKey))); got != "" {
				t.Fatalf("the new key cannot read: %s", got)
			}
			rotated, _ := NewSecretKey()
			if err := p.client.UpdateServiceAccount(ctx, a.AccessKey, ServiceAccountUpdate{SecretKey: rotated}); err != nil {
				t.Fatal(err)
			}
			if got := code(get.call(ctx, sdk(p.local.URL(), a.AccessKey, a.SecretKey))); got != "SignatureDoesNotMatch" {
				t.Errorf("old key after rotation: got %q, want SignatureDoesNotMatch", got)
			}
			if got := code(get.call(ctx, sdk(p.local.URL(), a.AccessKey, rotated))); got != "" {
				t.Errorf("new key after rotation: got %q", got)
			}
			if err := p.client.DeleteServiceAccount(ctx, a.AccessKey); err != nil {
				t.Fatal(err)
			}
			if got := code(get.call(ctx, sdk(p.local.URL(), a.AccessKey, rotated))); got != "InvalidAccessKeyId" {
				t.Errorf("key of a deleted account: got %q, want InvalidAccessKeyId", got)
			}
		})
	}
}

// ListBuckets with a granted key shows the granted buckets only, so a key
// does not learn other teams' bucket names.
func TestListBucketsShowsOnlyGrantedBuckets(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeGA)
	for _, b := range []string{"team-x", "team-y", "team-z"} {
		p.local.CreateBucket(b, false)
	}
	a := newAccount(t, DeriveAccessKey("ns", "lister"), BucketGrant{Bucket: "team-x", Access: ReadOnly, Prefix: "a/"},
		BucketGrant{Bucket: "team-z", Access: ReadOnly})
	if err := p.client.AddServiceAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	out, err := sdk(p.local.URL(), a.AccessKey, a.SecretKey).ListBuckets(ctx, &s3.ListBucketsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range out.Buckets {
		names = append(names, aws.ToString(b.Name))
	}
	if strings.Join(names, ",") != "team-x,team-z" {
		t.Errorf("ListBuckets: %v, want the two granted buckets", names)
	}
}
