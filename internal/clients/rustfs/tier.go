package rustfs

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A TierType is the lowercase wire name of a remote tier type
// (docs/rustfs-wire.md §2).
type TierType string

// The tier types the provider manages.
const (
	TierS3          TierType = "s3"
	TierRustFS      TierType = "rustfs"
	TierMinIO       TierType = "minio"
	TierAliyun      TierType = "aliyun"
	TierTencent     TierType = "tencent"
	TierHuaweiCloud TierType = "huaweicloud"
	TierR2          TierType = "r2"
	TierAzure       TierType = "azure"
	TierGCS         TierType = "gcs"
	TierWasabi      TierType = "wasabi"
)

// knownTypes are the types AddTier accepts.
var knownTypes = map[TierType]bool{
	TierS3: true, TierRustFS: true, TierMinIO: true, TierAliyun: true, TierTencent: true, TierHuaweiCloud: true, TierR2: true,
	TierAzure: true, TierGCS: true, TierWasabi: true,
}

// WasabiEndpoint returns the endpoint RustFS derives for a Wasabi tier in
// region (docs/rustfs-wire.md §2: https://s3.wasabisys.com for us-east-1, else
// https://s3.<region>.wasabisys.com). RustFS lists this endpoint.
func WasabiEndpoint(region string) string {
	if region == "us-east-1" {
		return "https://s3.wasabisys.com"
	}
	return "https://s3." + region + ".wasabisys.com"
}

// HasStorageClass reports whether the provider sends a storageClass key
// for this type: s3, whose backend writes objects with it, and rustfs,
// which stores it and sends "" (docs/rustfs-wire.md §2). azure and gcs
// define the key too but take "" when it is absent (GA refuses a non-empty
// azure one); wasabi refuses it as an unknown key; the other types do not
// define it and ignore it.
func (t TierType) HasStorageClass() bool { return t == TierS3 || t == TierRustFS }

// A Tier is one remote tier as the admin API lists or accepts it. On the wire
// the name lives inside the typed object (docs/rustfs-wire.md §2); here it is
// flattened. An azure tier's AccessKey and SecretKey are the keys of an
// S3-compatible endpoint (RustFS's azure backend speaks S3, not the Azure
// Blob API); a gcs tier has Creds instead, the Google credentials JSON
// RustFS reads as an OAuth authorized user (docs/rustfs-wire.md §2).
// String, GoString and Format never show SecretKey or Creds.
type Tier struct {
	Type         TierType
	Name         string
	Endpoint     string
	AccessKey    string
	SecretKey    string
	Creds        string
	Bucket       string
	Prefix       string
	Region       string
	StorageClass string
}

// String returns a description of the tier without its secrets.
func (t Tier) String() string {
	return fmt.Sprintf("rustfs.Tier{Type:%q Name:%q Endpoint:%q AccessKey:%q SecretKey:%s Creds:%s Bucket:%q Prefix:%q Region:%q StorageClass:%q}",
		t.Type, t.Name, t.Endpoint, t.AccessKey, redactedIfSet(t.SecretKey), redactedIfSet(t.Creds), t.Bucket, t.Prefix, t.Region, t.StorageClass)
}

// GoString returns the same redacted description as String.
func (t Tier) GoString() string { return t.String() }

// Format prints the redacted description for every verb.
func (t Tier) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, t.String()) }

// A TierStat is the recent transition activity of one tier.
type TierStat struct {
	Name        string
	TotalSize   uint64
	NumVersions uint64
	NumObjects  uint64
	// Inventory is what the tier holds, when RustFS accounts for it (GA,
	// inventory status "accounted"); nil otherwise.
	Inventory *TierInventory
	// InventoryStatus is the answer's inventory status (GA: accounted,
	// not-accounted or unavailable); empty in a legacy answer.
	InventoryStatus string
}

// TierInventory is what a tier holds (GA tier stats, docs/rustfs-wire.md §1.6).
type TierInventory struct {
	TotalSize   uint64
	NumVersions uint64
	NumObjects  uint64
}

// tierBackendJSON is the typed object of the admin JSON (docs/rustfs-wire.md §2)
// of every type that has static keys. Every key is a string so that JSON
// null is never sent; storageClass is a pointer only so it can be omitted
// for the types that do not have it (wasabi refuses unknown keys).
type tierBackendJSON struct {
	Name         string  `json:"name"`
	Endpoint     string  `json:"endpoint"`
	AccessKey    string  `json:"accessKey"`
	SecretKey    string  `json:"secretKey"`
	Bucket       string  `json:"bucket"`
	Prefix       string  `json:"prefix"`
	Region       string  `json:"region"`
	StorageClass *string `json:"storageClass,omitempty"`
}

// gcsJSON is the typed object of a gcs tier: the credentials JSON as a
// string instead of keys (docs/rustfs-wire.md §2).
type gcsJSON struct {
	Name     string `json:"name"`
	Endpoint string `json:"endpoint"`
	Creds    string `json:"creds"`
	Bucket   string `json:"bucket"`
	Prefix   string `json:"prefix"`
	Region   string `json:"region"`
}

// listedJSON decodes the typed object of every type as RustFS lists it.
type listedJSON struct {
	tierBackendJSON
	Creds string `json:"creds"`
}

// encodeTier renders t as {"type":"<t>","<t>":{…}} with the type lowercase.
func encodeTier(t Tier) ([]byte, error) {
	typ := TierType(strings.ToLower(string(t.Type)))
	if !knownTypes[typ] {
		return nil, errors.Errorf("unsupported tier type %q", t.Type)
	}
	if t.Name == "" {
		return nil, errors.New("tier name is required")
	}
	if strings.ContainsAny(t.Endpoint, "@?#") {
		return nil, errors.Errorf("tier endpoint %q must not have user info, a query or a fragment: put the keys in the Secret", safeEndpoint(t.Endpoint))
	}
	inner, err := json.Marshal(backendObject(typ, t))
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode tier")
	}
	typeJSON, _ := json.Marshal(string(typ)) // a string always encodes
	return []byte(`{"type":` + string(typeJSON) + `,` + string(typeJSON) + `:` + string(inner) + `}`), nil
}

// parseTierList decodes the list response: an array of TierConfig objects,
// each naming its type and holding the typed object under that key. The
// result is sorted by name, because RustFS lists in random order (docs/rustfs-wire.md §9).
func parseTierList(body []byte) ([]Tier, error) {
	if err := withinBudget(body, '{', maxTierObjects); err != nil {
		return nil, errors.Wrap(err, "cannot decode tier list")
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, errors.Wrap(err, "cannot decode tier list")
	}
	tiers := make([]Tier, 0, len(raw))
	for i, obj := range raw {
		t, err := decodeTierObject(obj)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot decode tier list element %d", i)
		}
		tiers = append(tiers, t)
	}
	sort.SliceStable(tiers, func(i, j int) bool { return tiers[i].Name < tiers[j].Name })
	return tiers, nil
}

// backendObject is the typed object for t.
func backendObject(typ TierType, t Tier) any {
	if typ == TierGCS {
		return gcsJSON{Name: t.Name, Endpoint: t.Endpoint, Creds: t.Creds, Bucket: t.Bucket, Prefix: t.Prefix, Region: t.Region}
	}
	b := tierBackendJSON{Name: t.Name, Endpoint: t.Endpoint, AccessKey: t.AccessKey, SecretKey: t.SecretKey,
		Bucket: t.Bucket, Prefix: t.Prefix, Region: t.Region}
	if typ.HasStorageClass() {
		sc := t.StorageClass
		b.StorageClass = &sc
	}
	return b
}

func decodeTierObject(obj map[string]json.RawMessage) (Tier, error) {
	var typ string
	if err := json.Unmarshal(obj["type"], &typ); err != nil {
		return Tier{}, errors.Wrap(err, "cannot decode type")
	}
	inner, ok := obj[typ]
	if !ok || typ == "" || typ == "type" {
		return Tier{}, errors.Errorf("no %q object", typ)
	}
	var b listedJSON
	if err := json.Unmarshal(inner, &b); err != nil {
		return Tier{}, errors.Wrapf(err, "cannot decode %q object", typ)
	}
	t := Tier{Type: TierType(typ), Name: b.Name, Endpoint: b.Endpoint, AccessKey: b.AccessKey, SecretKey: b.SecretKey,
		Creds: b.Creds, Bucket: b.Bucket, Prefix: b.Prefix, Region: b.Region}
	if b.StorageClass != nil {
		t.StorageClass = *b.StorageClass
	}
	return t, nil
}
