package rustfstest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// docs/rustfs-wire.md §13.8: strict lifecycle XML below the root, in both releases: an unknown
// and a duplicate element inside a rule are MalformedXML before any
// validation; unknown children of the root are skipped.
func TestGA13_8StrictXMLIsMalformedXML(t *testing.T) {
	cases := map[string]struct {
		body   string
		status int
		code   string
	}{
		"UnknownAndDuplicateInRule": {body: `<Rule><ID>a</ID><ID>b</ID><Status>Enabled</Status><Expiraton><Days>1</Days></Expiraton></Rule>`, status: 400, code: "MalformedXML"},
		"UnknownInRule":             {body: `<Rule><Status>Enabled</Status><Expiraton><Days>1</Days></Expiraton></Rule>`, status: 400, code: "MalformedXML"},
		"DuplicateInTransition":     {body: `<Rule><Status>Enabled</Status><Transition><Days>1</Days><Days>2</Days><StorageClass>COLD</StorageClass></Transition></Rule>`, status: 400, code: "MalformedXML"},
		"DuplicateFilter":           {body: `<Rule><Status>Enabled</Status><Filter><Prefix>a</Prefix></Filter><Filter><Prefix>b</Prefix></Filter><Expiration><Days>1</Days></Expiration></Rule>`, status: 400, code: "MalformedXML"},
		"UnknownInFilterAnd":        {body: `<Rule><Status>Enabled</Status><Filter><And><Prefix>a</Prefix><Size>1</Size></And></Filter><Expiration><Days>1</Days></Expiration></Rule>`, status: 400, code: "MalformedXML"},
		"ElementInsideLeaf":         {body: `<Rule><Status>Enabled</Status><Expiration><Days><X/></Days></Expiration></Rule>`, status: 400, code: "MalformedXML"},
		"RuleWithoutStatus":         {body: `<Rule><Expiration><Days>1</Days></Expiration></Rule>`, status: 400, code: "MalformedXML"},
		"NoRule":                    {body: ``, status: 400, code: "MalformedXML"},
		"RepeatableChildren":        {body: `<Rule><Status>Enabled</Status><Filter><And><Tag><Key>a</Key><Value>1</Value></Tag><Tag><Key>b</Key><Value>2</Value></Tag></And></Filter>` + tr + `<Transition><Days>9</Days><StorageClass>COLD</StorageClass></Transition></Rule>`, status: 200},
		"UnknownRootChildSkipped":   {body: `<Whatever><Nested/></Whatever><Rule><Status>Enabled</Status>` + tr + `</Rule>`, status: 200},
	}
	for _, mode := range []Mode{ModeGA, ModeRC} {
		for name, tc := range cases {
			t.Run(mode.String()+"/"+name, func(t *testing.T) {
				p := newPair(t, mode)
				p.local.CreateBucket("data", false)
				p.local.SeedTier(TierRecord{Type: "rustfs", Name: "COLD"})
				want(t, putLC(t, p, "data", lcBody(tc.body)), tc.status, tc.code, "")
			})
		}
	}
}

// docs/rustfs-wire.md §13.9: unsigned requests to unknown admin paths get 403 (rc too); only
// the exact host localhost is refused, not *.localhost; the remote answers
// ?versions and ?versioning.
func TestGA13_9SmallerPoints(t *testing.T) {
	p := newPair(t, ModeGA)
	for _, path := range []string{"/rustfs/admin/v3/nothing-here", "/rustfs/admin/v4/tier"} {
		want(t, do(t, p.local.URL(), req{method: http.MethodGet, path: path, unsigned: true}), 403, "AccessDenied", "Signature is required")
	}
	body := func(host string) []byte {
		return []byte(`{"type":"minio","minio":{"name":"M","endpoint":"http://` + host + `:1","accessKey":"a","secretKey":"b","bucket":"c"}}`)
	}
	want(t, p.add(t, body("localhost"), ""), 400, "InvalidArgument",
		invalidConfigMsg+": tier endpoint is not allowed: outbound URL host 'localhost' is not allowed: loopback host")
	if got := p.add(t, body("tier.localhost"), ""); strings.Contains(got.Message, "not allowed") {
		t.Errorf("*.localhost was refused by the guard: %s", got.Message)
	}
	p.remote.PutObject("cold", "k", []byte("v"))
	list := do(t, p.remote.URL(), req{method: http.MethodGet, path: "/cold", query: "versions=&prefix=k", ak: remoteAK, sk: remoteSK})
	if list.Status != 200 || !strings.Contains(string(list.Body), "<VersionId>null</VersionId>") {
		t.Errorf("?versions: %d %s", list.Status, list.Body)
	}
	want(t, do(t, p.remote.URL(), req{method: http.MethodGet, path: "/cold", query: "versioning=", ak: remoteAK, sk: remoteSK}), 200, "", "")
}

// docs/rustfs-wire.md §13.10: GA's admin info carries the deployment ID (§15).
func TestGA13_10AdminInfoCarriesTheDeploymentID(t *testing.T) {
	p := newPair(t, ModeGA, WithDeploymentID("0b6f2c7e-8f4a-4d3e-9c1b-2a5d6e7f8a9b"))
	got := do(t, p.local.URL(), req{method: http.MethodGet, path: "/rustfs/admin/v3/info"})
	info, _ := infoBody(t, got)["info"].(map[string]any)
	if info["deploymentID"] != "0b6f2c7e-8f4a-4d3e-9c1b-2a5d6e7f8a9b" {
		t.Errorf("info.deploymentID: %v", info["deploymentID"])
	}
}

// docs/rustfs-wire.md §13.11: tier bodies are plain JSON on both prefixes; anything else, such
// as a madmin-encrypted body, is 400 InvalidRequest "invalid JSON".
func TestGA13_11TierBodiesArePlainJSONOnBothPrefixes(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, do(t, p.local.URL(), req{method: http.MethodPut, path: "/minio/admin/v3/tier", body: p.tierJSON("COLD")}), 200, "", "")
	got := do(t, p.local.URL(), req{method: http.MethodPut, path: "/minio/admin/v3/tier", body: []byte{0x00, 0x01, 0xff, 0x10}})
	if got.Status != 400 || got.Code != "InvalidRequest" || !strings.HasPrefix(got.Message, "invalid JSON: ") {
		t.Errorf("encrypted body: %d %s %s", got.Status, got.Code, got.Message)
	}
}

// docs/rustfs-wire.md §13.12: GA refuses localhost, loopback and private endpoints for every
// S3-speaking type (rc only for s3).
func TestGA13_12OutboundGuardForEveryType(t *testing.T) {
	for _, typ := range []string{"s3", "rustfs", "minio", "aliyun", "tencent", "huaweicloud", "r2", "azure"} {
		for _, host := range []string{"127.0.0.1:9000", "localhost", "10.1.2.3", "192.168.0.1", "169.254.169.254", "[::1]:9000"} {
			t.Run(typ+"/"+host, func(t *testing.T) {
				p := newPair(t, ModeGA)
				body := `{"type":"` + typ + `","` + typ + `":{"name":"A","endpoint":"http://` + host + `","accessKey":"a","secretKey":"b","bucket":"c"}}`
				got := p.add(t, []byte(body), "force=true")
				want(t, got, 400, "InvalidArgument", "")
				if !strings.HasPrefix(got.Message, invalidConfigMsg+": tier endpoint is not allowed") {
					t.Errorf("message %q", got.Message)
				}
			})
		}
	}
}

// docs/rustfs-wire.md §13.13: the GA edit body takes madmin's names, and creds as base64; a
// field given under two names is a duplicate.
func TestGA13_13EditAcceptsMadminNames(t *testing.T) {
	p := newPair(t, ModeGA)
	p.remote.SetUser("rotated", "rotated-sk", "s3:*")
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	want(t, p.admin(t, http.MethodPost, "/tier/COLD", "", []byte(`{"access":"rotated","secret":"rotated-sk"}`)), 200, "", "")
	if rec, _ := p.local.Tier("COLD"); rec.AccessKey != "rotated" {
		t.Errorf("madmin names ignored: access key %q", rec.AccessKey)
	}
	want(t, p.admin(t, http.MethodPost, "/tier/COLD", "", []byte(`{"access":"a","accessKey":"b","secret":"c"}`)), 400, "InvalidRequest", "")
	creds := base64.StdEncoding.EncodeToString([]byte(GCSAuthorizedUser("client", "k")))
	want(t, p.admin(t, http.MethodPost, "/tier/COLD", "", []byte(`{"creds":"`+creds+`"}`)), 500, "TierEditFailed",
		"tier edit failed. GCS credentials cannot be used with this remote tier type")

	rc := newPair(t, ModeRC)
	want(t, rc.add(t, rc.tierJSON("COLD"), ""), 200, "", "")
	want(t, rc.admin(t, http.MethodPost, "/tier/COLD", "", []byte(`{"access":"rotated","secret":"rotated-sk"}`)), 500, "TierMissingCredentials", "")
}

// docs/rustfs-wire.md §13.14: GA verify runs the GA probe; its failures are 500
// TierVerificationFailed with the probe's message.
func TestGA13_14VerifyRunsTheGAProbe(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.ResetCounters()
	want(t, p.admin(t, http.MethodGet, "/tier/COLD", "", nil), 200, "", "")
	sameRoutes(t, "verify", routes(p.remote), probeRoutes)
	if path := p.remote.Requests()[0].Path; !strings.HasPrefix(path, "/cold/tiered/rustfs-tier-probe-") {
		t.Errorf("verify probe object: %s", path)
	}
	p.remote.Close() // unreachable: the PUT and its compensation fail
	want(t, p.admin(t, http.MethodGet, "/tier/COLD", "", nil), 500, "TierVerificationFailed", "tier verification failed. "+uncertainMsg)
}

// GA remove of a non-empty prefix is 400 (docs/rustfs-wire.md §12.10 item 4).
func TestGARemoveNonEmptyIs400BackendNotEmpty(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.PutObject("cold", "tiered/x", []byte("x"))
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "", nil), 400, "XMinioAdminTierBackendNotEmpty",
		"Specified remote backend is not empty")
}

// GA tier stats: the v2 body unless format=legacy (docs/rustfs-wire.md §12.10 item 6).
func TestGATierStatsIsV2(t *testing.T) {
	p := newPair(t, ModeGA)
	p.local.SeedTier(TierRecord{Type: "rustfs", Name: "COLD"})
	p.local.SeedTierStats("COLD", TierStat{TotalSize: 3, NumVersions: 2, NumObjects: 1})
	got := p.admin(t, http.MethodGet, "/tier-stats", "", nil)
	var v2 struct {
		ContractVersion int `json:"contractVersion"`
		Tiers           []struct {
			Name string                     `json:"name"`
			T    map[string]json.RawMessage `json:"transitionsLast24h"`
		} `json:"tiers"`
	}
	if err := json.Unmarshal(got.Body, &v2); err != nil || v2.ContractVersion != 2 || len(v2.Tiers) != 1 ||
		string(v2.Tiers[0].T["totalSize"]) != "3" {
		t.Errorf("v2 body: %s", got.Body)
	}
	legacy := p.admin(t, http.MethodGet, "/tier-stats", "format=legacy", nil)
	if string(legacy.Body) != `{"COLD":{"total_size":3,"num_versions":2,"num_objects":1}}` {
		t.Errorf("legacy: %s", legacy.Body)
	}
	want(t, p.admin(t, http.MethodGet, "/tier-stats", "format=xml", nil), 400, "InvalidArgument", "")
}

// Codes not listed as GA differences stay as in rc (docs/rustfs-wire.md §12.10).
func TestGAKeepsRCCodesForExistsAndNotFound(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	want(t, p.add(t, p.tierJSON("COLD"), ""), 500, "TierNameAlreadyExist", "tier name already exists")
	want(t, p.add(t, p.tierJSON("cold"), ""), 500, "TierNameNotUppercase", "tier name must be uppercase")
	want(t, p.admin(t, http.MethodPost, "/tier/NOPE", "", []byte(`{"accessKey":"a","secretKey":"b"}`)), 500, "TierNotFound", "tier not found")
}
