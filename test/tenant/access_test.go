package tenant

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// expectAccessWorks reads the connection Secret ns/name of an access entry
// and, with the key it holds and an independent S3 client (the AWS SDK),
// puts an object into bucket and gets it back.
func (w *world) expectAccessWorks(ns, name, bucket string) {
	w.t.Helper()
	s := &corev1.Secret{}
	if err := env.Client.Get(w.ctx, client.ObjectKey{Namespace: ns, Name: name}, s); err != nil {
		w.t.Fatalf("cannot read the access entry's Secret: %v", err)
	}
	d := func(k string) string { return string(s.Data[k]) }
	if d(v1alpha1.ConnectionEndpoint) != w.local.URL() || d(v1alpha1.ConnectionBuckets) != bucket || d(v1alpha1.ConnectionSecretKey) == "" {
		w.t.Fatalf("the access entry's Secret: endpoint %q (want %q), buckets %q (want %q), secret key set %t",
			d(v1alpha1.ConnectionEndpoint), w.local.URL(), d(v1alpha1.ConnectionBuckets), bucket, d(v1alpha1.ConnectionSecretKey) != "")
	}
	c := s3.New(s3.Options{
		Region: d(v1alpha1.ConnectionRegion), BaseEndpoint: aws.String(d(v1alpha1.ConnectionEndpoint)), UsePathStyle: true,
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: d(v1alpha1.ConnectionAccessKey), SecretAccessKey: d(v1alpha1.ConnectionSecretKey)}, nil
		}),
	})
	const body = "written with the Tenant's key"
	if _, err := c.PutObject(w.ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("hello.txt"),
		Body: bytes.NewReader([]byte(body))}); err != nil {
		w.t.Fatalf("put with the Tenant's key: %v", err)
	}
	out, err := c.GetObject(w.ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String("hello.txt")})
	if err != nil {
		w.t.Fatalf("get with the Tenant's key: %v", err)
	}
	defer func() { _ = out.Body.Close() }()
	got, err := io.ReadAll(out.Body)
	if err != nil || !strings.EqualFold(string(got), body) {
		w.t.Errorf("get with the Tenant's key: got %q, %v; want %q", got, err, body)
	}
}
