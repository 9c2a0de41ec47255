package bucketaccess

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Sentinel credentials of the provider's RustFS identity. Tests assert that
// they never appear in errors, conditions, status, annotations, events,
// logs or the emulator's request log.
const (
	adminAK = "AKSENTINEL4BUCKETACC"
	adminSK = "SKSENTINEL-bucketaccess-secret-must-not-leak"
)

const (
	systemNS    = "crossplane-system"
	adminSecret = "rustfs-admin"
)

// leaks returns the indexes of the secrets that s contains, without
// printing s or them.
func leaks(s string, secrets ...string) []int {
	var out []int
	for i, v := range append([]string{adminAK, adminSK}, secrets...) {
		if v != "" && strings.Contains(s, v) {
			out = append(out, i)
		}
	}
	return out
}

// clusterConfig returns a ClusterProviderConfig named name for endpoint,
// and its Secret, named after it.
func clusterConfig(name, endpoint string, scope v1alpha1.NameScope) []client.Object {
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: name}}
	pc.Spec.Endpoint = endpoint
	pc.Spec.NameScope = scope
	pc.Spec.Credentials.Source = xpv2.CredentialsSourceSecret
	pc.Spec.Credentials.SecretRef = xpv2.SecretReference{Namespace: systemNS, Name: adminSecret + "-" + name}
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: systemNS, Name: adminSecret + "-" + name},
		Data:       map[string][]byte{"accesskey": []byte(adminAK), "secretkey": []byte(adminSK)},
	}
	return []client.Object{pc, s}
}

func bucketObject(ns, name, bucket, config string) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	meta.SetExternalName(b, bucket)
	b.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: config}
	return b
}

type accessModifier func(*v1alpha1.BucketAccess)

func grant(bucket string, access v1alpha1.AccessLevel, prefix string) v1alpha1.BucketGrant {
	return v1alpha1.BucketGrant{Bucket: bucket, Access: access, Prefix: prefix}
}

func withGrants(g ...v1alpha1.BucketGrant) accessModifier {
	return func(cr *v1alpha1.BucketAccess) { cr.Spec.ForProvider.Buckets = g }
}

// access returns a BucketAccess ns/name through ClusterProviderConfig
// config, publishing to the Secret name+"-key".
func access(ns, name, config string, m ...accessModifier) *v1alpha1.BucketAccess {
	cr := &v1alpha1.BucketAccess{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	cr.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: config}
	cr.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: name + "-key"}
	for _, f := range m {
		f(cr)
	}
	return cr
}

// sdk is an independent S3 client (the AWS SDK) with the given key.
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

// condition returns condition ct of cr as "Status/Reason".
func condition(cr interface {
	GetCondition(xpv2.ConditionType) xpv2.Condition
}, ct xpv2.ConditionType) string {
	c := cr.GetCondition(ct)
	return string(c.Status) + "/" + string(c.Reason)
}

// statusText renders what a resource shows users besides its spec, to
// check for secret values (testenv.Shown).
func statusText(t *testing.T, cr client.Object) string { return testenv.Shown(t, cr) }

func ctx(t *testing.T) context.Context { return testenv.Context(t) }

func clientKey(o client.Object) client.ObjectKey { return client.ObjectKeyFromObject(o) }
