package tenant

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// A check is one validation: when fail is true, the input is invalid at
// field with msg.
type check struct {
	fail  bool
	field string
	msg   string
}

// firstFailure returns an error naming path and the field of the first
// failed check, or nil.
func firstFailure(path string, checks ...check) error {
	for _, c := range checks {
		if c.fail {
			return errors.Errorf("%s%s: %s", path, c.field, c.msg)
		}
	}
	return nil
}

// nameCheck is the check of a name at field against rules: its first
// broken rule.
func nameCheck(rules naming.Rules, field, name string) check {
	rule := rules.Broken(name)
	return check{fail: rule != "", field: field, msg: rule}
}

// validate checks the whole spec, as the XRD's schema does at admission, and
// the rules the schema cannot express. The error names the offending entry.
func validate(s TenantSpec) error {
	if err := validateProviderConfig(s.ProviderConfigRef); err != nil {
		return err
	}
	if err := validateTiers(s.Tiers); err != nil {
		return err
	}
	if err := validateBuckets(s.Buckets); err != nil {
		return err
	}
	return validateAccess(s.Access, s.Buckets)
}

// validateProviderConfig checks the configuration the composed resources use.
func validateProviderConfig(r *ProviderConfigReference) error {
	if r == nil {
		return nil
	}
	return firstFailure("providerConfigRef", []check{
		{fail: r.Kind != KindProviderConfig && r.Kind != KindClusterProviderConfig, field: ".kind", msg: fmt.Sprintf("must be ProviderConfig or ClusterProviderConfig, not %q", r.Kind)},
		{fail: r.Name == "", field: ".name", msg: "must name a ProviderConfig or ClusterProviderConfig"},
	}...)
}

// validateTiers checks every tier and that tier names are unique.
func validateTiers(tiers []TenantTier) error {
	return eachUnique("tiers", "tier", tiers, func(t TenantTier) string { return t.Name }, validateTier)
}

// eachUnique checks items, the entries of the list field whose names are
// what names: that each name is used once, then each entry with check at
// its path (field[i]).
func eachUnique[T any](field, what string, items []T, name func(T) string, check func(path string, item T) error) error {
	seen := map[string]int{}
	for i, it := range items {
		path := fmt.Sprintf("%s[%d]", field, i)
		n := name(it)
		if j, dup := seen[n]; dup {
			return errors.Errorf("%s.name: duplicate %s name %q, already used by %s[%d]; %s names must be unique", path, what, n, field, j, what)
		}
		seen[n] = i
		if err := check(path, it); err != nil {
			return err
		}
	}
	return nil
}

// validateTier checks one tier as the Tier CRD would.
func validateTier(path string, t TenantTier) error {
	wasabi := t.Type == v1alpha1.TierTypeWasabi
	checks := append([]check{}, nameCheck(naming.Tier, ".name", t.Name),
		check{fail: !validTierType(t.Type), field: ".type", msg: fmt.Sprintf("must be one of S3, RustFS, MinIO, Aliyun, Tencent, HuaweiCloud, R2, Azure, GCS or Wasabi, not %q", t.Type)},
		check{fail: !wasabi && !validEndpoint(t.Endpoint), field: ".endpoint", msg: "must be an http:// or https:// URL with a host, for example https://s3.example.com"},
		check{fail: wasabi && t.Endpoint != "", field: ".endpoint", msg: "must not be set for a Wasabi tier: RustFS derives it from region"},
		check{fail: wasabi && !wasabiRegion.MatchString(t.Region), field: ".region", msg: "is required for a Wasabi tier, for example us-east-1: RustFS derives the endpoint from it; use lower-case letters, digits and '-'"},
		check{fail: t.Bucket == "", field: ".bucket", msg: "must name the remote bucket that receives transitioned objects"},
		check{fail: t.CredsSecret.Name == "", field: ".credsSecret.name", msg: "must name the Secret holding the remote storage credentials"},
		check{fail: t.CredsSecret.AuthorizedUserKey != "" && t.Type != v1alpha1.TierTypeGCS, field: ".credsSecret.authorizedUserKey", msg: "is for a GCS tier, whose credentials are a Google authorized-user JSON; other types read accessKeyKey and secretKeyKey"},
		check{fail: t.Type == v1alpha1.TierTypeAzure && azureStorageHost(t.Endpoint), field: ".endpoint", msg: "of an Azure tier must be an S3-compatible endpoint: RustFS reaches Azure tiers over the S3 API, which Azure Storage endpoints (*.core.windows.net) do not speak"},
		check{fail: t.StorageClass != "" && t.Type != v1alpha1.TierTypeS3, field: ".storageClass", msg: "is the remote storage class of an S3 tier; RustFS ignores it for other types (and refuses it for Azure), so set it only when type is S3"},
	)
	return firstFailure(path, checks...)
}

// azureStorageHost reports whether s is an Azure Storage endpoint, which
// speaks the Azure APIs and not the S3 API RustFS's azure backend uses.
func azureStorageHost(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	for _, d := range []string{".core.windows.net", ".core.chinacloudapi.cn", ".core.usgovcloudapi.net"} {
		if strings.HasSuffix(h, d) {
			return true
		}
	}
	return false
}

// wasabiRegion is the form RustFS accepts for a Wasabi region.
var wasabiRegion = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// validTierType reports whether t is a tier type RustFS supports.
func validTierType(t v1alpha1.TierType) bool {
	switch t {
	case v1alpha1.TierTypeS3, v1alpha1.TierTypeRustFS, v1alpha1.TierTypeMinIO, v1alpha1.TierTypeAliyun,
		v1alpha1.TierTypeTencent, v1alpha1.TierTypeHuaweiCloud, v1alpha1.TierTypeR2, v1alpha1.TierTypeAzure,
		v1alpha1.TierTypeGCS, v1alpha1.TierTypeWasabi:
		return true
	}
	return false
}

// validEndpoint reports whether s is an http(s) URL with a host.
func validEndpoint(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != ""
}

// validateBuckets checks every bucket and its lifecycle, and that bucket
// names are unique.
func validateBuckets(buckets []TenantBucket) error {
	return eachUnique("buckets", "bucket", buckets, func(b TenantBucket) string { return b.Name }, func(path string, b TenantBucket) error {
		if err := validateBucket(path, b); err != nil {
			return err
		}
		if b.Lifecycle == nil {
			return nil
		}
		return validateLifecycle(path+".lifecycle", *b.Lifecycle)
	})
}

// validateBucket checks a bucket's name and settings.
func validateBucket(path string, b TenantBucket) error {
	v := b.Versioning
	return firstFailure(path, []check{
		nameCheck(naming.Bucket, ".name", b.Name),
		{fail: v != "" && v != v1alpha1.VersioningEnabled && v != v1alpha1.VersioningSuspended, field: ".versioning", msg: fmt.Sprintf("must be Enabled or Suspended, not %q", v)},
		{fail: b.ObjectLock && v == v1alpha1.VersioningSuspended, field: ".versioning", msg: "cannot be Suspended when objectLock is true: object lock requires versioning"},
	}...)
}
