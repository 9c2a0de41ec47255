package rustfstest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The azure, gcs and wasabi tier types end to end over HTTP, in both
// releases: their bodies (docs/rustfs-wire.md §2), how RustFS reaches their remote (§18) and
// how they are listed, edited and verified.

func listed(t *testing.T, p pair, typ string) map[string]json.RawMessage {
	t.Helper()
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(p.admin(t, http.MethodGet, "/tier", "", nil).Body, &list); err != nil || len(list) != 1 {
		t.Fatalf("list: %v, %d entries", err, len(list))
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(list[0][typ], &inner); err != nil {
		t.Fatalf("list entry has no %s object: %v", typ, err)
	}
	return inner
}

func strField(m map[string]json.RawMessage, k string) string {
	var s string
	_ = json.Unmarshal(m[k], &s)
	return s
}

func azureBody(p pair, name string) []byte {
	return []byte(`{"type":"azure","azure":{"name":"` + name + `","endpoint":"` + p.remote.TierURL() + `","accessKey":"` + remoteAK +
		`","secretKey":"` + remoteSK + `","bucket":"cold","prefix":"tiered/","region":"us-east-1"}}`)
}

// Azure speaks S3 with virtual-host addressing: "<bucket>.<host>/<key>".
func TestAzureTierUsesVirtualHostAddressing(t *testing.T) {
	for _, mode := range []Mode{ModeGA, ModeRC} {
		t.Run(mode.String(), func(t *testing.T) {
			p := newPair(t, mode)
			want(t, p.add(t, azureBody(p, "ARCHIVE"), ""), 200, "", "")
			for _, r := range p.remote.Requests() {
				if strings.HasPrefix(r.Path, "/cold") {
					t.Errorf("path-style request %s %s; azure uses the bucket's host name", r.Method, r.Path)
				}
			}
			if mode == ModeGA && !strings.HasPrefix(p.remote.Requests()[0].Path, "/tiered/rustfs-tier-probe-") {
				t.Errorf("probe path %s", p.remote.Requests()[0].Path)
			}
			inner := listed(t, p, "azure")
			if strField(inner, "accessKey") != remoteAK || strField(inner, "secretKey") != "REDACTED" || string(inner["spAuth"]) == "" {
				t.Errorf("azure list entry: %v", inner)
			}
		})
	}
}

// GA probes an azure tier's new account on edit; refused keys leave the
// stored account in place.
func TestAzureEditProbesTheNewAccount(t *testing.T) {
	p := newPair(t, ModeGA)
	p.remote.SetUser("acct2", "key2", "s3:*")
	want(t, p.add(t, azureBody(p, "ARCHIVE"), ""), 200, "", "")
	want(t, p.admin(t, http.MethodPost, "/tier/ARCHIVE", "", []byte(`{"accessKey":"acct2","secretKey":"key2"}`)), 200, "", "")
	want(t, p.admin(t, http.MethodPost, "/tier/ARCHIVE", "", []byte(`{"accessKey":"acct3","secretKey":"nope"}`)), 500, "TierEditFailed", "tier edit failed. "+uncertainMsg)
	if rec, _ := p.local.Tier("ARCHIVE"); rec.AccessKey != "acct2" {
		t.Errorf("stored account %q, want acct2", rec.AccessKey)
	}
}

// WithoutCandidateProbe reproduces the GA refusal that docs/rustfs-wire.md §4.3 infers for
// backends that cannot list their probe object: the object stays behind.
func TestWithoutCandidateProbeRefusesTheAdd(t *testing.T) {
	p := newPair(t, ModeGA, WithoutCandidateProbe("azure"))
	want(t, p.add(t, azureBody(p, "ARCHIVE"), ""), 500, "TierAddFailed", "tier add failed. "+uncertainMsg)
	if keys := p.remote.Objects("cold"); len(keys) != 1 || !strings.HasPrefix(keys[0], "tiered/rustfs-tier-probe-") {
		t.Errorf("remote objects %v, want the probe object left behind", keys)
	}
}

// Wasabi derives its endpoint from the region; its remote is reached by
// that public name (here aliased to a TLS emulator) and must be unversioned.
func TestWasabiTierEndpointFromRegion(t *testing.T) {
	for _, mode := range []Mode{ModeGA, ModeRC} {
		t.Run(mode.String(), func(t *testing.T) {
			remote := NewServer(WithMode(mode), WithTLS(), WithRootCredentials(remoteAK, remoteSK))
			t.Cleanup(remote.Close)
			remote.CreateBucket("cold", false)
			p := newPair(t, mode, WithRemoteAlias("s3.eu-west-1.wasabisys.com", remote.Addr()))
			body := `{"type":"wasabi","wasabi":{"name":"W","accessKey":"` + remoteAK + `","secretKey":"` + remoteSK +
				`","bucket":"cold","prefix":"w/","region":"eu-west-1"}}`
			want(t, p.add(t, []byte(body), ""), 200, "", "")
			if rec, _ := p.local.Tier("W"); rec.Endpoint != "https://s3.eu-west-1.wasabisys.com" {
				t.Errorf("stored endpoint %q", rec.Endpoint)
			}
			if remote.Count(RouteGetVersioning) == 0 {
				t.Error("the wasabi backend did not check the remote's versioning")
			}
			remote.SetVersioning("cold", "Enabled")
			got := p.add(t, []byte(strings.Replace(body, `"name":"W"`, `"name":"V"`, 1)), "")
			if mode == ModeGA {
				want(t, got, 400, "InvalidArgument", invalidConfigMsg)
			} else {
				want(t, got, 500, "TierAddFailed", "tier add failed. Wasabi tier bucket must be unversioned")
			}
		})
	}
}

func gcsBody(p pair, name, creds string) []byte {
	c, _ := json.Marshal(creds)
	return []byte(`{"type":"gcs","gcs":{"name":"` + name + `","endpoint":"` + p.remote.TierURL() + `","creds":` + string(c) +
		`,"bucket":"cold","prefix":"g/","region":""}}`)
}

// GCS works on the remote emulator's storage with the service account's
// identity; the list redacts the credentials JSON; GA edits take new JSON
// as base64 "creds" and probe with it.
func TestGCSTier(t *testing.T) {
	p := newPair(t, ModeGA)
	p.remote.SetUser("sa2@example.iam", "key2", "s3:*")
	want(t, p.add(t, gcsBody(p, "G", GCSServiceAccount(remoteAK, remoteSK)), ""), 200, "", "")
	if p.remote.Count(RouteGCSWrite) != 1 || p.remote.Count(RouteGCSDelete) != 1 || p.remote.Count(RouteGCSList) != 3 {
		t.Errorf("gcs operations on the remote: %v", p.remote.Counts())
	}
	if n := p.remote.VersionCount("cold"); n != 0 {
		t.Errorf("the GCS probe left %d generations", n)
	}
	if inner := listed(t, p, "gcs"); strField(inner, "creds") != "REDACTED" || inner["accessKey"] != nil {
		t.Errorf("gcs list entry: %v", inner)
	}
	edit := func(creds string) result {
		b64 := base64.StdEncoding.EncodeToString([]byte(creds))
		return p.admin(t, http.MethodPost, "/tier/G", "", []byte(`{"creds":"`+b64+`"}`))
	}
	want(t, edit(GCSServiceAccount("sa2@example.iam", "key2")), 200, "", "")
	want(t, edit(GCSServiceAccount("sa3@example.iam", "nope")), 500, "TierEditFailed", "tier edit failed. "+uncertainMsg)
	if rec, _ := p.local.Tier("G"); !strings.Contains(rec.Creds, "sa2@example.iam") {
		t.Error("a refused edit replaced the stored service account")
	}
	want(t, p.admin(t, http.MethodPost, "/tier/G", "", []byte(`{"accessKey":"a","secretKey":"b"}`)), 500, "TierEditFailed",
		"tier edit failed. Static access and secret keys cannot be used with a GCS tier")
	want(t, p.add(t, gcsBody(p, "H", GCSServiceAccount("nobody", "x")), ""), 500, "TierAddFailed", "tier add failed. "+uncertainMsg)
}

// rc stores a gcs edit's access key as the credentials JSON (docs/rustfs-wire.md §5).
func TestGCSEditRCStoresTheAccessKeyAsCreds(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, gcsBody(p, "G", GCSServiceAccount(remoteAK, remoteSK)), ""), 200, "", "")
	sa := GCSServiceAccount("other", "k")
	body, _ := json.Marshal(map[string]string{"accessKey": sa, "secretKey": "unused"})
	want(t, p.admin(t, http.MethodPost, "/tier/G", "", body), 200, "", "")
	if rec, _ := p.local.Tier("G"); rec.Creds != sa {
		t.Error("rc gcs edit did not store the access key as creds")
	}
}
