package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// proofKey is the object the key proof writes, under the granted prefix
// and outside it.
const proofKey = "demo-key-proof.txt"

// proveKeys shows, for every BucketAccess with a ReadWrite grant, that its
// published key works: it writes and reads an object under the granted
// prefix and is refused one outside it. Each proof is one row.
func proveKeys(ctx context.Context, c client.Client) []row {
	l := &v1alpha1.BucketAccessList{}
	if err := c.List(ctx, l); err != nil {
		return []row{{kind: "KeyProof", name: "-", ready: "False", synced: "-", conflict: "-", why: "cannot list BucketAccesses: " + err.Error()}}
	}
	var out []row
	for i := range l.Items {
		a := &l.Items[i]
		g, ok := readWriteGrant(a)
		if !ok || a.GetWriteConnectionSecretToReference() == nil {
			continue
		}
		r := row{kind: "KeyProof", name: a.Namespace + "/" + a.GetWriteConnectionSecretToReference().Name, ready: "True", synced: "-", conflict: "-"}
		why, err := proveKey(ctx, c, a, g)
		if err != nil {
			r.ready, why = "False", err.Error()
		}
		r.why = shorten(why, 110)
		out = append(out, r)
	}
	return out
}

// readWriteGrant returns the first ReadWrite grant of a, whose bucket name
// the reference resolver has filled in.
func readWriteGrant(a *v1alpha1.BucketAccess) (v1alpha1.BucketGrant, bool) {
	for _, g := range a.Spec.ForProvider.Buckets {
		if g.Access == v1alpha1.AccessReadWrite && g.Bucket != "" {
			return g, true
		}
	}
	return v1alpha1.BucketGrant{}, false
}

// proveKey puts and gets an object under g's prefix with the key a
// published, then expects a put outside the prefix to be refused.
func proveKey(ctx context.Context, c client.Client, a *v1alpha1.BucketAccess, g v1alpha1.BucketGrant) (string, error) {
	if g.Prefix == "" {
		return "", fmt.Errorf("the grant of bucket %s has no prefix: nothing to be refused outside it", g.Bucket)
	}
	sec := &corev1.Secret{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: a.Namespace, Name: a.GetWriteConnectionSecretToReference().Name}, sec); err != nil {
		return "", fmt.Errorf("cannot read the published key: %w", err)
	}
	s3c := s3Client(sec.Data)
	inside := g.Prefix + proofKey
	outside := "outside-" + strings.TrimSuffix(g.Prefix, "/") + "/" + proofKey
	const body = "written with the key the provider published"
	if _, err := s3c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(g.Bucket), Key: aws.String(inside), Body: bytes.NewReader([]byte(body))}); err != nil {
		return "", fmt.Errorf("put %s/%s with the published key failed: %s", g.Bucket, inside, code(err))
	}
	out, err := s3c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(g.Bucket), Key: aws.String(inside)})
	if err != nil {
		return "", fmt.Errorf("get %s/%s with the published key failed: %s", g.Bucket, inside, code(err))
	}
	got, err := io.ReadAll(out.Body)
	_ = out.Body.Close()
	if err != nil || string(got) != body {
		return "", fmt.Errorf("get %s/%s returned other content", g.Bucket, inside)
	}
	_, err = s3c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(g.Bucket), Key: aws.String(outside), Body: bytes.NewReader([]byte(body))})
	if code(err) != "AccessDenied" {
		return "", fmt.Errorf("put %s/%s outside the grant: want AccessDenied, got %s", g.Bucket, outside, code(err))
	}
	return fmt.Sprintf("wrote+read %s/%s; AccessDenied at %s/%s", g.Bucket, inside, g.Bucket, outside), nil
}

// s3Client is an S3 client with the endpoint, region and key of a
// BucketAccess's connection Secret.
func s3Client(d map[string][]byte) *s3.Client {
	get := func(k string) string { return string(d[k]) }
	return s3.New(s3.Options{
		Region: get(v1alpha1.ConnectionRegion), BaseEndpoint: aws.String(get(v1alpha1.ConnectionEndpoint)), UsePathStyle: true,
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: get(v1alpha1.ConnectionAccessKey), SecretAccessKey: get(v1alpha1.ConnectionSecretKey)}, nil
		}),
	})
}

// code is the S3 error code of err, "success" for nil, or "an error"
// (the server's text is not shown: it is untrusted).
func code(err error) string {
	if err == nil {
		return "success"
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return "an error"
}
