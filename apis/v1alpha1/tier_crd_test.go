package v1alpha1_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The credential shapes and endpoint rules of each tier type are enforced
// at admission (docs/rustfs-wire.md §2).
func TestTierTypeAdmission(t *testing.T) {
	testenv.Skip(t)
	keys := map[string]any{"name": "creds"}
	cases := map[string]struct {
		reason string
		params map[string]any
		want   string
	}{
		"Azure": {reason: "An Azure tier takes the S3 keys of its endpoint from the Secret's two keys.",
			params: map[string]any{"type": "Azure", "endpoint": "https://s3.azure-gateway.example.com", "credentialsSecretRef": map[string]any{"name": "c", "accessKeyKey": "ak", "secretKeyKey": "sk"}}},
		"AzureStorageClass": {reason: "RustFS refuses storageClass for Azure.",
			params: map[string]any{"type": "Azure", "endpoint": "https://s3.azure-gateway.example.com", "storageClass": "Cool"},
			want:   "storageClass is the remote storage class of an S3 tier"},
		"GCS": {reason: "A GCS tier reads a Google authorized-user JSON.",
			params: map[string]any{"type": "GCS", "endpoint": "https://storage.googleapis.com", "credentialsSecretRef": map[string]any{"name": "c", "authorizedUserKey": "key.json"}}},
		"AuthorizedUserKeyForS3": {reason: "Only GCS reads an authorized-user JSON.",
			params: map[string]any{"type": "S3", "endpoint": "https://s3.amazonaws.com", "credentialsSecretRef": map[string]any{"name": "c", "authorizedUserKey": "key.json"}},
			want:   "credentialsSecretRef.authorizedUserKey is for a GCS tier"},
		"Wasabi": {reason: "A Wasabi tier names its region and no endpoint.",
			params: map[string]any{"type": "Wasabi", "region": "eu-central-1"}},
		"WasabiWithEndpoint": {reason: "RustFS derives a Wasabi endpoint from the region.",
			params: map[string]any{"type": "Wasabi", "region": "eu-central-1", "endpoint": "https://s3.eu-central-1.wasabisys.com"},
			want:   "endpoint must not be set for a Wasabi tier"},
		"WasabiWithoutRegion": {reason: "A Wasabi tier needs its region.",
			params: map[string]any{"type": "Wasabi"}, want: "region is required for a Wasabi tier"},
		"WasabiBadRegion": {reason: "RustFS accepts lower-case letters, digits and '-' in a Wasabi region.",
			params: map[string]any{"type": "Wasabi", "region": "EU_1"}, want: "region is required for a Wasabi tier"},
		"S3WithoutEndpoint": {reason: "Every type but Wasabi needs an endpoint.",
			params: map[string]any{"type": "S3"}, want: "endpoint is required"},
		"UserInfoEndpoint": {reason: "A remote endpoint with user info would be stored in RustFS and listed.",
			params: map[string]any{"type": "S3", "endpoint": "https://ak:pa55-sentinel@s3.example.com"},
			want:   "endpoint must not contain user info (user:password@), a query or a fragment"},
		"QueryEndpoint": {reason: "A remote endpoint with a query is refused.",
			params: map[string]any{"type": "S3", "endpoint": "https://s3.example.com?X-Amz-Signature=pa55"},
			want:   "endpoint must not contain user info (user:password@), a query or a fragment"},
		"UnknownType": {reason: "Only the types RustFS defines are accepted.",
			params: map[string]any{"type": "Backblaze", "endpoint": "https://b.example.com"}, want: "Unsupported value"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			wantAdmission(t, createTier(name, keys, tc.params), tc.want)
		})
	}
}

// RustFS's azure backend is an S3 client (SigV4, bucket as a virtual
// host), so an Azure Storage endpoint is refused at admission
// (docs/rustfs-wire.md §2).
func TestAzureTierEndpointAdmission(t *testing.T) {
	testenv.Skip(t)
	const refused = "endpoint of an Azure tier must be an S3-compatible endpoint"
	cases := map[string]struct {
		reason string
		params map[string]any
		want   string
	}{
		"AzureBlobEndpoint": {reason: "An Azure Blob endpoint does not speak S3.",
			params: map[string]any{"type": "Azure", "endpoint": "https://acct.blob.core.windows.net"}, want: refused},
		"AzureBlobEndpointUpperCase": {reason: "Host names compare case-insensitively.",
			params: map[string]any{"type": "Azure", "endpoint": "https://ACCT.BLOB.CORE.WINDOWS.NET/"}, want: refused},
		"AzureSovereignCloud": {reason: "Azure China's storage endpoints are Azure Storage too.",
			params: map[string]any{"type": "Azure", "endpoint": "https://acct.blob.core.chinacloudapi.cn:443/x"}, want: refused},
		"AzureS3Endpoint": {reason: "An S3-compatible endpoint is what an Azure tier needs.",
			params: map[string]any{"type": "Azure", "endpoint": "https://s3.azure-gateway.example.com"}},
		"LookalikeHost": {reason: "Only the Azure Storage domain itself is refused.",
			params: map[string]any{"type": "Azure", "endpoint": "https://core.windows.net.example.com"}},
		"BlobEndpointForS3": {reason: "The rule is for Azure tiers only.",
			params: map[string]any{"type": "S3", "endpoint": "https://acct.blob.core.windows.net"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			wantAdmission(t, createTier("az-"+name, map[string]any{"name": "creds"}, tc.params), tc.want)
		})
	}
}

// createTier creates the Tier type-<name> whose forProvider is a name, a
// bucket and the credentials keys, overridden by params.
func createTier(name string, keys, params map[string]any) error {
	p := map[string]any{"name": "T", "bucket": "b", "credentialsSecretRef": keys}
	for k, v := range params {
		p[k] = v
	}
	tr := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"forProvider": p}}}
	tr.SetGroupVersionKind(v1alpha1.TierGroupVersionKind)
	tr.SetNamespace("default")
	tr.SetName("type-" + strings.ToLower(name))
	return env.Client.Create(context.Background(), tr)
}
