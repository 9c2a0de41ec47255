package tier

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// wireTypes maps the spec's spelling of a tier type to RustFS's lowercase
// wire name (docs/rustfs-wire.md §2).
var wireTypes = map[v1alpha1.TierType]rustfs.TierType{
	v1alpha1.TierTypeS3:          rustfs.TierS3,
	v1alpha1.TierTypeRustFS:      rustfs.TierRustFS,
	v1alpha1.TierTypeMinIO:       rustfs.TierMinIO,
	v1alpha1.TierTypeAliyun:      rustfs.TierAliyun,
	v1alpha1.TierTypeTencent:     rustfs.TierTencent,
	v1alpha1.TierTypeHuaweiCloud: rustfs.TierHuaweiCloud,
	v1alpha1.TierTypeR2:          rustfs.TierR2,
	v1alpha1.TierTypeAzure:       rustfs.TierAzure,
	v1alpha1.TierTypeGCS:         rustfs.TierGCS,
	v1alpha1.TierTypeWasabi:      rustfs.TierWasabi,
}

// wireType returns the wire name of a spec type. An unknown type (which the
// schema rejects) is sent lowercased, so RustFS reports it.
func wireType(t v1alpha1.TierType) rustfs.TierType {
	if w, ok := wireTypes[t]; ok {
		return w
	}
	return rustfs.TierType(strings.ToLower(string(t)))
}

// specType returns the spec's spelling of a wire type, or "" for a type the
// API cannot express.
func specType(t rustfs.TierType) v1alpha1.TierType {
	for s, w := range wireTypes {
		if w == t {
			return s
		}
	}
	return ""
}

// desiredTier returns the tier the spec describes, without credentials. A
// Wasabi tier's endpoint is the one RustFS derives from its region, which
// RustFS then lists (docs/rustfs-wire.md §2).
func desiredTier(p v1alpha1.TierParameters) rustfs.Tier {
	t := rustfs.Tier{
		Type: wireType(p.Type), Name: p.Name, Endpoint: p.Endpoint, Bucket: p.Bucket,
		Prefix: p.Prefix, Region: p.Region, StorageClass: p.StorageClass,
	}
	if t.Type == rustfs.TierWasabi {
		t.Endpoint = rustfs.WasabiEndpoint(p.Region)
	}
	return t
}

// normalPrefix returns the prefix as RustFS identifies a tier's backend
// (tier.rs › normalized_tier_prefix, used by tier_backend_identity, and the
// warm backends, docs/rustfs-wire.md §18): s3 and wasabi (whose backend is
// an s3 backend) trim "/" on both sides, every other type strips one
// trailing "/". Prefixes that normalise equally write to the same place.
func normalPrefix(t rustfs.TierType, prefix string) string {
	if t == rustfs.TierS3 || t == rustfs.TierWasabi {
		return strings.Trim(prefix, "/")
	}
	return strings.TrimSuffix(prefix, "/")
}

// A fieldDiff is one tier setting whose live value differs from the spec.
type fieldDiff struct {
	Field   string
	Live    string
	Desired string
}

// settingsDiff returns every setting RustFS cannot change on a registered
// tier that differs between live and desired, in spec order. Type, bucket,
// endpoint and region compare exactly, as RustFS's backend identity does;
// the prefix compares normalised; storageClass only for s3, the one type
// whose backend uses it.
func settingsDiff(desired, live rustfs.Tier) []fieldDiff {
	var d []fieldDiff
	add := func(field, l, w string, same bool) {
		if !same {
			d = append(d, fieldDiff{Field: field, Live: l, Desired: w})
		}
	}
	add("type", string(live.Type), string(desired.Type), live.Type == desired.Type)
	add("endpoint", live.Endpoint, desired.Endpoint, live.Endpoint == desired.Endpoint)
	add("bucket", live.Bucket, desired.Bucket, live.Bucket == desired.Bucket)
	add("prefix", live.Prefix, desired.Prefix,
		normalPrefix(live.Type, live.Prefix) == normalPrefix(desired.Type, desired.Prefix))
	add("region", live.Region, desired.Region, live.Region == desired.Region)
	if desired.Type == rustfs.TierS3 && live.Type == rustfs.TierS3 {
		add("storageClass", live.StorageClass, desired.StorageClass, live.StorageClass == desired.StorageClass)
	}
	return d
}

// hashKey returns the hex SHA-256 of an access key; never the key itself.
func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// redacted is how RustFS lists a key it does not show.
const redacted = "REDACTED"

// liveKeyHash returns the hash of the access key RustFS lists, or "" when
// RustFS shows it empty or redacted, in which case it cannot be compared.
func liveKeyHash(key string) string {
	if key == "" || key == redacted {
		return ""
	}
	return hashKey(key)
}

// An applied record is what the provider remembers about the credentials
// it last applied to a tier. It holds no secret value.
type applied struct {
	SecretName            string `json:"secretName"`
	SecretResourceVersion string `json:"secretResourceVersion"`
	AccessKeyHash         string `json:"accessKeyHash"`
}

// credentialsDrift says why the tier's credentials must be applied, or ""
// when they need not be. Applied credentials are rewritten when nothing was
// applied yet (an adopted tier gets the Secret's credentials once), when
// the Secret's name or resourceVersion changed, or when RustFS lists an
// access key that is not the Secret's. A live key RustFS shows empty or
// redacted is not compared, so credentials are never rewritten on every
// reconcile.
func credentialsDrift(last *applied, want applied, liveHash string) string {
	switch {
	case last == nil:
		return "credentials from the Secret have not been applied to this tier yet"
	case last.SecretName != want.SecretName:
		return fmt.Sprintf("credentials Secret changed from %q to %q", last.SecretName, want.SecretName)
	case last.SecretResourceVersion != want.SecretResourceVersion:
		return fmt.Sprintf("credentials Secret %q changed (resourceVersion %s, applied %s)",
			want.SecretName, want.SecretResourceVersion, last.SecretResourceVersion)
	case liveHash != "" && liveHash != want.AccessKeyHash:
		return "RustFS lists an access key for the tier that differs from the Secret's"
	}
	return ""
}

// observation renders what RustFS lists for the tier, and what the provider
// applied to it, as status. live is nil when the tier does not exist.
func observation(live *rustfs.Tier, last *applied, rec *v1alpha1.Custody) v1alpha1.TierObservation {
	var o v1alpha1.TierObservation
	if live != nil {
		o = v1alpha1.TierObservation{
			Type: specType(live.Type), Endpoint: live.Endpoint, Bucket: live.Bucket, Prefix: live.Prefix,
			Region: live.Region, StorageClass: live.StorageClass, AccessKeyHash: liveKeyHash(live.AccessKey),
		}
	}
	if last != nil {
		o.Credentials = &v1alpha1.TierCredentialsStatus{
			SecretName: last.SecretName, SecretResourceVersion: last.SecretResourceVersion, AccessKeyHash: last.AccessKeyHash,
		}
	}
	o.Adopted = rec != nil && rec.Acquired == v1alpha1.AcquiredAdopted
	return o
}

// lookupTier returns the tier named name, matched exactly as RustFS does
// (docs/rustfs-wire.md §9), or nil.
func lookupTier(tiers []rustfs.Tier, name string) *rustfs.Tier {
	for i := range tiers {
		if tiers[i].Name == name {
			t := tiers[i]
			return &t
		}
	}
	return nil
}
