package rustfstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// wireTypes are the TierType variants serde accepts, with the message of the
// missing-object error (docs/rustfs-wire.md §1.2 step 3, §2).
var wireTypes = map[string]string{
	"s3": "missing S3 configuration", "rustfs": "missing RustFS configuration", "minio": "missing MinIO configuration",
	"wasabi": "missing Wasabi configuration", "aliyun": "missing Aliyun configuration",
	"tencent": "missing Tencent configuration", "huaweicloud": "missing Huawei Cloud configuration",
	"azure": "missing Azure configuration", "gcs": "missing GCS configuration", "r2": "missing R2 configuration",
}

// emulatedTypes share the S3-compatible shape and are fully emulated.
// wasabi, azure and gcs parse but are answered as unsupported.
var emulatedTypes = map[string]bool{"s3": true, "rustfs": true, "minio": true, "aliyun": true,
	"tencent": true, "huaweicloud": true, "r2": true}

// backendKeys are the string keys of the typed object (docs/rustfs-wire.md §2 table).
var backendKeys = []string{"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region", "storageClass"}

// parseTierConfig decodes an Add body like serde does (docs/rustfs-wire.md §2): lowercase type
// (missing means Unsupported), the name only inside the typed object, missing
// keys become "", JSON null or a non-string is a type error.
func parseTierConfig(body []byte) (TierRecord, *s3Error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return TierRecord{}, invalidRequest("invalid JSON: " + err.Error())
	}
	typ := "Unsupported"
	if raw, ok := top["type"]; ok {
		if err := json.Unmarshal(raw, &typ); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return TierRecord{}, invalidRequest("invalid JSON: invalid type: expected a string for key `type`")
		}
		if _, known := wireTypes[typ]; !known && typ != "Unsupported" {
			return TierRecord{}, invalidRequest(fmt.Sprintf("invalid JSON: unknown variant `%s`", typ))
		}
	}
	rec := TierRecord{Type: typ}
	for key := range wireTypes {
		raw, ok := top[key]
		if !ok {
			continue
		}
		fields, err := decodeBackend(raw)
		if err != nil {
			return TierRecord{}, invalidRequest("invalid JSON: " + err.Error())
		}
		if key == typ {
			rec = recordFrom(typ, fields)
		}
	}
	if msg, ok := wireTypes[typ]; ok {
		if _, present := top[typ]; !present {
			return TierRecord{}, invalidRequest(msg)
		}
	}
	return rec, nil
}

// decodeBackend decodes a typed object into its string keys.
func decodeBackend(raw json.RawMessage) (map[string]string, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, k := range backendKeys {
		v, ok := obj[k]
		if !ok {
			continue
		}
		var s string
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) || json.Unmarshal(v, &s) != nil {
			return nil, fmt.Errorf("invalid type: %s, expected a string for key `%s`", strings.TrimSpace(string(v)), k)
		}
		out[k] = s
	}
	return out, nil
}

func recordFrom(typ string, f map[string]string) TierRecord {
	return TierRecord{Type: typ, Name: f["name"], Endpoint: f["endpoint"], AccessKey: f["accessKey"],
		SecretKey: f["secretKey"], Bucket: f["bucket"], Prefix: f["prefix"], Region: f["region"],
		StorageClass: f["storageClass"]}
}

// listBackend is the typed object as the list renders it, keys in the docs/rustfs-wire.md §2
// table order; storageClass exists only for s3 and rustfs.
type listBackend struct {
	Name         string  `json:"name"`
	Endpoint     string  `json:"endpoint"`
	AccessKey    string  `json:"accessKey"`
	SecretKey    string  `json:"secretKey"`
	Bucket       string  `json:"bucket"`
	Prefix       string  `json:"prefix"`
	Region       string  `json:"region"`
	StorageClass *string `json:"storageClass,omitempty"`
}

// listEntry renders one tier for the list with the secret key replaced by
// "REDACTED" (docs/rustfs-wire.md §2, the redacting Clone). There is no top-level name.
func listEntry(t TierRecord) json.RawMessage {
	b := listBackend{Name: t.Name, Endpoint: t.Endpoint, AccessKey: t.AccessKey, SecretKey: "REDACTED",
		Bucket: t.Bucket, Prefix: t.Prefix, Region: t.Region}
	if t.Type == "s3" || t.Type == "rustfs" {
		sc := t.StorageClass // stored as sent; only the rustfs backend ignores it (docs/rustfs-wire.md §2)
		b.StorageClass = &sc
	}
	inner, _ := json.Marshal(b)    //nolint:errchkjson // plain strings
	typ, _ := json.Marshal(t.Type) //nolint:errchkjson // plain string
	return json.RawMessage(`{"type":` + string(typ) + `,` + string(typ) + `:` + string(inner) + `}`)
}

// adminQueryKeys are the keys of AddTierQuery (docs/rustfs-wire.md §1); unknown keys are ignored.
var adminQueryKeys = map[string]bool{"accessKey": true, "status": true, "secretKey": true, "serviceName": true,
	"sessionToken": true, "tier": true, "tierName": true, "tierType": true, "force": true}

// parseAdminQuery decodes the query like serde_urlencoded into AddTierQuery:
// a duplicated known key is an error (docs/rustfs-wire.md §1).
func parseAdminQuery(raw string) (map[string]string, *s3Error) {
	out := map[string]string{}
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		dk, err1 := url.QueryUnescape(k)
		dv, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			return nil, invalidArgument("failed to decode query")
		}
		if !adminQueryKeys[dk] {
			continue
		}
		if _, dup := out[dk]; dup {
			return nil, invalidArgument("failed to decode query")
		}
		out[dk] = dv
	}
	return out, nil
}

// parseForce parses force like Rust bool::from_str: "" means false, else
// exactly "true" or "false" (docs/rustfs-wire.md §1).
func parseForce(v string) (bool, *s3Error) {
	switch v {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, invalidRequest("invalid force flag")
}
