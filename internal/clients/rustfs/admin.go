package rustfs

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A TierAPI manages remote tiers through the RustFS admin API
// (docs/rustfs-wire.md §1). Any 2xx answer is success.
type TierAPI interface {
	ListTiers(ctx context.Context) ([]Tier, error)
	AddTier(ctx context.Context, t Tier, force bool) error
	EditTierCredentials(ctx context.Context, name, accessKey, secretKey string) error
	EditTierGCSCredentials(ctx context.Context, name, credentialsJSON string) error
	RemoveTier(ctx context.Context, name string, force bool) error
	VerifyTier(ctx context.Context, name string) error
	TierStats(ctx context.Context) ([]TierStat, error)
}

var _ TierAPI = &Client{}

const jsonType = "application/json"

// tierPath returns the unescaped and escaped admin path of one tier. RustFS
// matches the raw, undecoded segment (docs/rustfs-wire.md §1.3), so names should
// stay within [A-Z0-9_.-], where both are equal.
func tierPath(name string) (string, string) {
	return adminPrefix + "/tier/" + name, adminPrefix + "/tier/" + url.PathEscape(name)
}

// ListTiers returns every registered tier, sorted by name. Secret keys come
// back as "REDACTED" (docs/rustfs-wire.md §1.1, §2).
func (c *Client) ListTiers(ctx context.Context) ([]Tier, error) {
	resp, err := c.do(ctx, request{op: OpListTiers, method: http.MethodGet, path: adminPrefix + "/tier"})
	if err != nil {
		return nil, errors.Wrap(err, "cannot list tiers")
	}
	tiers, err := parseTierList(resp.body)
	return tiers, c.scrub(errors.Wrap(err, "cannot list tiers"))
}

// AddTier registers t. Unless force is set, RustFS first checks that the
// remote prefix is empty (docs/rustfs-wire.md §1.2, §4).
func (c *Client) AddTier(ctx context.Context, t Tier, force bool) error {
	body, err := encodeTier(t)
	if err != nil {
		return errors.Wrap(err, "cannot add tier")
	}
	q := url.Values{"force": {strconv.FormatBool(force)}}
	_, err = c.do(ctx, request{op: OpAddTier, method: http.MethodPut, path: adminPrefix + "/tier", query: q, body: body, contentType: jsonType,
		remote: true, secrets: append([]string{t.SecretKey, t.AccessKey}, gcsSecrets(t.Creds)...)})
	return errors.Wrapf(err, "cannot add tier %q", t.Name)
}

// tierCredsJSON is the edit body (docs/rustfs-wire.md §5). Both keys are always sent.
type tierCredsJSON struct {
	AccessKey string `json:"accessKey"`
	SecretKey string `json:"secretKey"`
}

// EditTierCredentials replaces the credentials of a tier. Both keys are
// required: an s3 edit without both would store "REDACTED" as the secret key
// (docs/rustfs-wire.md §5).
func (c *Client) EditTierCredentials(ctx context.Context, name, accessKey, secretKey string) error {
	if accessKey == "" || secretKey == "" {
		return errors.Errorf("cannot edit tier %q: both access key and secret key are required", name)
	}
	body, err := json.Marshal(tierCredsJSON{AccessKey: accessKey, SecretKey: secretKey})
	if err != nil {
		return errors.Wrap(err, "cannot encode tier credentials")
	}
	p, raw := tierPath(name)
	_, err = c.do(ctx, request{op: OpEditTier, method: http.MethodPost, path: p, rawPath: raw, body: body, contentType: jsonType,
		remote: true, secrets: []string{secretKey, accessKey}})
	return errors.Wrapf(err, "cannot edit credentials of tier %q", name)
}

// gcsCredsGA is a GCS edit body of RustFS 1.0.x GA: the credentials JSON
// in base64 under "creds" (docs/rustfs-wire.md §5, §13.13).
type gcsCredsGA struct {
	Creds string `json:"creds"`
}

// gcsRCSecretKey is the secret key of an rc GCS edit: rc requires a
// non-empty one and ignores it (docs/rustfs-wire.md §5).
const gcsRCSecretKey = "-"

// EditTierGCSCredentials replaces the credentials JSON of a gcs tier.
// RustFS 1.0.x GA takes it as base64 "creds"; 1.0.0-rc knows no such field
// and answers TierMissingCredentials, and reads the JSON from accessKey
// instead (with a secretKey it ignores), so that answer is followed by the
// rc body (docs/rustfs-wire.md §5).
func (c *Client) EditTierGCSCredentials(ctx context.Context, name, credentialsJSON string) error {
	if credentialsJSON == "" {
		return errors.Errorf("cannot edit tier %q: a credentials JSON is required", name)
	}
	ga, _ := json.Marshal(gcsCredsGA{Creds: base64.StdEncoding.EncodeToString([]byte(credentialsJSON))}) // strings only
	err := c.editGCS(ctx, name, ga, credentialsJSON)
	if e, ok := apiError(err); ok && codesMissingCreds[e.Code] {
		rc, _ := json.Marshal(tierCredsJSON{AccessKey: credentialsJSON, SecretKey: gcsRCSecretKey}) // strings only
		err = c.editGCS(ctx, name, rc, credentialsJSON)
	}
	return errors.Wrapf(err, "cannot edit the credentials of tier %q", name)
}

func (c *Client) editGCS(ctx context.Context, name string, body []byte, credentialsJSON string) error {
	p, raw := tierPath(name)
	_, err := c.do(ctx, request{op: OpEditTier, method: http.MethodPost, path: p, rawPath: raw, body: body, contentType: jsonType,
		remote: true, secrets: gcsSecrets(credentialsJSON)})
	return err
}

// RemoveTier removes a tier. Removing an unknown tier succeeds (docs/rustfs-wire.md
// §6); force skips only the remote emptiness check.
func (c *Client) RemoveTier(ctx context.Context, name string, force bool) error {
	p, raw := tierPath(name)
	q := url.Values{"force": {strconv.FormatBool(force)}}
	_, err := c.do(ctx, request{op: OpRemoveTier, method: http.MethodDelete, path: p, rawPath: raw, query: q, remote: true})
	return errors.Wrapf(err, "cannot remove tier %q", name)
}

// VerifyTier asks RustFS to write, read and delete a probe object on the
// remote tier (docs/rustfs-wire.md §1.5).
func (c *Client) VerifyTier(ctx context.Context, name string) error {
	p, raw := tierPath(name)
	_, err := c.do(ctx, request{op: OpVerifyTier, method: http.MethodGet, path: p, rawPath: raw, remote: true})
	return errors.Wrapf(err, "cannot verify tier %q", name)
}

// TierStats returns the recent transition counters per tier, sorted by name.
func (c *Client) TierStats(ctx context.Context) ([]TierStat, error) {
	resp, err := c.do(ctx, request{op: OpTierStats, method: http.MethodGet, path: adminPrefix + "/tier-stats"})
	if err != nil {
		return nil, errors.Wrap(err, "cannot get tier stats")
	}
	stats, err := parseTierStats(resp.body)
	return stats, c.scrub(errors.Wrap(err, "cannot get tier stats"))
}

// legacyStatJSON is one value of the legacy map body (docs/rustfs-wire.md §1.6).
type legacyStatJSON struct {
	TotalSize   uint64 `json:"total_size"`
	NumVersions uint64 `json:"num_versions"`
	NumObjects  uint64 `json:"num_objects"`
}

// countsJSON are the counters of the v2 body.
type countsJSON struct {
	TotalSize   uint64 `json:"totalSize"`
	NumVersions uint64 `json:"numVersions"`
	NumObjects  uint64 `json:"numObjects"`
}

// statsV2JSON is the contractVersion 2 body (docs/rustfs-wire.md §1.6, post-snapshot).
type statsV2JSON struct {
	ContractVersion int `json:"contractVersion"`
	Inventory       struct {
		Status string `json:"status"`
	} `json:"inventory"`
	Tiers []struct {
		Name        string      `json:"name"`
		Inventory   *countsJSON `json:"inventory"`
		Transitions countsJSON  `json:"transitionsLast24h"`
	} `json:"tiers"`
}

// inventoryStatus returns a GA inventory status RustFS defines, or "unknown"
// for any other text: server text never reaches status unchecked.
func inventoryStatus(s string) string {
	switch s {
	case "accounted", "not-accounted", "unavailable":
		return s
	case "":
		return ""
	}
	return "unknown"
}

// parseTierStats accepts both the legacy {name: stats} map and the v2 body.
func parseTierStats(body []byte) ([]TierStat, error) {
	if err := withinBudget(body, '{', maxStatsObjects); err != nil {
		return nil, errors.Wrap(err, "cannot decode tier stats")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(body, &probe); err != nil {
		return nil, errors.Wrap(err, "cannot decode tier stats")
	}
	var out []TierStat
	if _, v2 := probe["contractVersion"]; v2 {
		var s statsV2JSON
		if err := json.Unmarshal(body, &s); err != nil {
			return nil, errors.Wrap(err, "cannot decode tier stats")
		}
		status := inventoryStatus(s.Inventory.Status)
		for _, t := range s.Tiers {
			st := TierStat{Name: t.Name, TotalSize: t.Transitions.TotalSize, InventoryStatus: status,
				NumVersions: t.Transitions.NumVersions, NumObjects: t.Transitions.NumObjects}
			if t.Inventory != nil {
				st.Inventory = &TierInventory{TotalSize: t.Inventory.TotalSize, NumVersions: t.Inventory.NumVersions, NumObjects: t.Inventory.NumObjects}
			}
			out = append(out, st)
		}
	} else {
		var m map[string]legacyStatJSON
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, errors.Wrap(err, "cannot decode tier stats")
		}
		for name, s := range m {
			out = append(out, TierStat{Name: name, TotalSize: s.TotalSize, NumVersions: s.NumVersions, NumObjects: s.NumObjects})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
