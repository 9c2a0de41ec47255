package rustfstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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

// typeKeys are the string keys of each type's object (tier_config.rs), in
// the order the list renders them; azure also has spAuth (docs/rustfs-wire.md §2 table).
var typeKeys = map[string][]string{
	"s3":          {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region", "storageClass"},
	"rustfs":      {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region", "storageClass"},
	"minio":       {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region"},
	"aliyun":      {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region"},
	"tencent":     {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region"},
	"huaweicloud": {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region"},
	"r2":          {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region"},
	"wasabi":      {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region"},
	"azure":       {"name", "endpoint", "accessKey", "secretKey", "bucket", "prefix", "region", "storageClass"},
	"gcs":         {"name", "endpoint", "creds", "bucket", "prefix", "region", "storageClass"},
}

// wasabiRequired are TierWasabi's fields without a serde default.
var wasabiRequired = []string{"name", "accessKey", "secretKey", "bucket", "region"}

// spAuthKeys are ServicePrincipalAuth's keys (snake_case).
var spAuthKeys = []string{"tenant_id", "client_id", "client_secret"}

// parseTierConfig decodes an Add body like serde does (docs/rustfs-wire.md §2): lowercase type
// (missing means Unsupported), the name only inside the typed object, missing
// keys become "" (wasabi: unknown keys and missing required keys are
// errors), JSON null or a non-string is a type error.
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
		fields, err := decodeBackend(key, raw)
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

// decodeBackend decodes a typed object into its string keys (spAuth's keys
// prefixed "spAuth.").
func decodeBackend(typ string, raw json.RawMessage) (map[string]string, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, v := range obj {
		switch {
		case slices.Contains(typeKeys[typ], k):
			s, err := jsonString(k, v)
			if err != nil {
				return nil, err
			}
			out[k] = s
		case typ == "azure" && k == "spAuth":
			if err := decodeSPAuth(v, out); err != nil {
				return nil, err
			}
		case typ == "wasabi": // #[serde(deny_unknown_fields)]
			return nil, fmt.Errorf("unknown field `%s`, expected one of `%s`", k, strings.Join(typeKeys[typ], "`, `"))
		}
	}
	if typ == "wasabi" {
		for _, k := range wasabiRequired {
			if _, ok := obj[k]; !ok {
				return nil, fmt.Errorf("missing field `%s`", k)
			}
		}
	}
	return out, nil
}

func decodeSPAuth(raw json.RawMessage, out map[string]string) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return err
	}
	for _, k := range spAuthKeys {
		if v, ok := obj[k]; ok {
			s, err := jsonString(k, v)
			if err != nil {
				return err
			}
			out["spAuth."+k] = s
		}
	}
	return nil
}

// jsonString decodes a JSON string; null and other types are type errors.
func jsonString(key string, v json.RawMessage) (string, error) {
	var s string
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) || json.Unmarshal(v, &s) != nil {
		return "", fmt.Errorf("invalid type: %s, expected a string for key `%s`", strings.TrimSpace(string(v)), key)
	}
	return s, nil
}

func recordFrom(typ string, f map[string]string) TierRecord {
	return TierRecord{Type: typ, Name: f["name"], Endpoint: f["endpoint"], AccessKey: f["accessKey"],
		SecretKey: f["secretKey"], Bucket: f["bucket"], Prefix: f["prefix"], Region: f["region"],
		StorageClass: f["storageClass"], Creds: f["creds"], SPTenantID: f["spAuth.tenant_id"],
		SPClientID: f["spAuth.client_id"], SPClientSecret: f["spAuth.client_secret"]}
}

// listEntry renders one tier for the list (docs/rustfs-wire.md §2, the redacting Clone): the
// type's keys in order, secretKey and gcs creds "REDACTED"; azure's spAuth
// client secret is shown by rc and redacted by GA. There is no top-level
// name.
func (e *Emulator) listEntry(t TierRecord) json.RawMessage {
	values := map[string]string{"name": t.Name, "endpoint": t.Endpoint, "accessKey": t.AccessKey,
		"secretKey": redactedValue, "bucket": t.Bucket, "prefix": t.Prefix, "region": t.Region,
		"storageClass": t.StorageClass, "creds": redactedValue}
	var b strings.Builder
	b.WriteString("{")
	for i, k := range typeKeys[t.Type] {
		if i > 0 {
			b.WriteString(",")
		}
		writeJSONPair(&b, k, values[k])
	}
	if t.Type == "azure" {
		secret := t.SPClientSecret
		if e.mode == ModeGA && secret != "" {
			secret = redactedValue
		}
		b.WriteString(`,"spAuth":{`)
		writeJSONPair(&b, "tenant_id", t.SPTenantID)
		b.WriteString(",")
		writeJSONPair(&b, "client_id", t.SPClientID)
		b.WriteString(",")
		writeJSONPair(&b, "client_secret", secret)
		b.WriteString("}")
	}
	b.WriteString("}")
	typ, _ := json.Marshal(t.Type) // plain string
	return json.RawMessage(`{"type":` + string(typ) + `,` + string(typ) + `:` + b.String() + `}`)
}

func writeJSONPair(b *strings.Builder, k, v string) {
	kb, _ := json.Marshal(k) // plain string
	vb, _ := json.Marshal(v) // plain string
	b.Write(kb)
	b.WriteString(":")
	b.Write(vb)
}

// adminQueryKeys are the keys of AddTierQuery (docs/rustfs-wire.md §1); unknown keys are ignored.
var adminQueryKeys = map[string]bool{"accessKey": true, "status": true, "secretKey": true, "serviceName": true,
	"sessionToken": true, "tier": true, "tierName": true, "tierType": true, "force": true}

// parseAdminQuery decodes the query like serde_urlencoded into AddTierQuery:
// a duplicated known key is an error (docs/rustfs-wire.md §1).
func parseAdminQuery(raw string) (map[string]string, *s3Error) {
	out := map[string]string{}
	for _, p := range splitQuery(raw) {
		if !p.ok {
			return nil, invalidArgument("failed to decode query")
		}
		dk, dv := p.key, p.value
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
