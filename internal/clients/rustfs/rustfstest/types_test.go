package rustfstest

import (
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

// Azure speaks S3 (SigV4 with the tier's keys) with virtual-host
// addressing, "<bucket>.<host>/<key>", not the Azure Blob API
// (docs/rustfs-wire.md §2, §18). GA adds an azure tier only where its
// backend can find the probe object (WithCandidateProbe, §4.3).
func TestAzureTierIsAnS3EndpointWithVirtualHostAddressing(t *testing.T) {
	for _, mode := range []Mode{ModeGA, ModeRC} {
		t.Run(mode.String(), func(t *testing.T) {
			p := newPair(t, mode, WithCandidateProbe("azure"))
			want(t, p.add(t, azureBody(p, "ARCHIVE"), ""), 200, "", "")
			for _, r := range p.remote.Requests() {
				if strings.HasPrefix(r.Path, "/cold") || r.Status >= 300 {
					t.Errorf("%s %s answered %d; azure signs S3 requests on the bucket's host name", r.Method, r.Path, r.Status)
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

// An Azure Blob storage account's keys are not S3 keys: the remote
// refuses RustFS's SigV4 requests, so the add fails.
func TestAzureTierWithKeysTheS3EndpointRefusesFails(t *testing.T) {
	p := newPair(t, ModeRC)
	body := strings.Replace(string(azureBody(p, "ARCHIVE")), remoteSK, "account-key-of-a-storage-account", 1)
	got := p.add(t, []byte(body), "")
	want(t, got, 500, "TierAddFailed", "")
	if !strings.Contains(got.Message, "403 Forbidden") {
		t.Errorf("message %q, want the remote's SigV4 refusal", got.Message)
	}
}

// GA probes an azure tier's new account on edit; refused keys leave the
// stored account in place.
func TestAzureEditProbesTheNewAccount(t *testing.T) {
	p := newPair(t, ModeGA, WithCandidateProbe("azure"))
	p.remote.SetUser("acct2", "key2", "s3:*")
	want(t, p.add(t, azureBody(p, "ARCHIVE"), ""), 200, "", "")
	want(t, p.admin(t, http.MethodPost, "/tier/ARCHIVE", "", []byte(`{"accessKey":"acct2","secretKey":"key2"}`)), 200, "", "")
	want(t, p.admin(t, http.MethodPost, "/tier/ARCHIVE", "", []byte(`{"accessKey":"acct3","secretKey":"nope"}`)), 500, "TierEditFailed", "tier edit failed. "+uncertainMsg)
	if rec, _ := p.local.Tier("ARCHIVE"); rec.AccessKey != "acct2" {
		t.Errorf("stored account %q, want acct2", rec.AccessKey)
	}
}

// In GA only the s3, rustfs, minio and r2 backends can find the probe
// object an add writes (docs/rustfs-wire.md §4.3): an add of any other type
// fails with "probe outcome is uncertain" and leaves the object behind;
// WithoutCandidateProbe extends the refusal to another type.
func TestGAAddRefusesTypesWithoutCandidateProbe(t *testing.T) {
	bodies := map[string]func(p pair) []byte{
		"azure":  func(p pair) []byte { return azureBody(p, "ARCHIVE") },
		"gcs":    func(p pair) []byte { return gcsBody(p, "ARCHIVE", gaGCSCreds(remoteAK, remoteSK)) },
		"minio":  func(p pair) []byte { return typedBody(p, "minio") },
		"aliyun": func(p pair) []byte { return typedBody(p, "aliyun") },
	}
	for _, typ := range []string{"azure", "gcs", "aliyun"} {
		t.Run(typ, func(t *testing.T) {
			p := newPair(t, ModeGA)
			want(t, p.add(t, bodies[typ](p), ""), 500, "TierAddFailed", "tier add failed. "+uncertainMsg)
			if len(p.local.Tiers()) != 0 || len(p.remote.Objects("cold")) != 1 {
				t.Errorf("tiers %v, remote objects %v: want none registered and the probe object left behind",
					p.local.Tiers(), p.remote.Objects("cold"))
			}
		})
	}
	p := newPair(t, ModeGA, WithoutCandidateProbe("minio"))
	want(t, p.add(t, bodies["minio"](p), ""), 500, "TierAddFailed", "tier add failed. "+uncertainMsg)
	want(t, newPair(t, ModeRC).add(t, bodies["aliyun"](newPair(t, ModeRC)), ""), 200, "", "")
}

// typedBody is a tier of one of the plain S3-compatible types on the
// pair's remote, addressed by its virtual-host name where the type uses it.
func typedBody(p pair, typ string) []byte {
	return []byte(strings.NewReplacer(`"type":"rustfs","rustfs"`, `"type":"`+typ+`","`+typ+`"`, `,"storageClass":""`, "").
		Replace(string(p.tierJSON("TYPED"))))
}

// Wasabi derives its endpoint from the region; its remote is reached by
// that public name (here aliased to a TLS emulator) and must be
// unversioned. rc reports a failed versioning check with the bare
// invalid-config message (new_warm_backend drops validate()'s error).
func TestWasabiTierEndpointFromRegion(t *testing.T) {
	for _, mode := range []Mode{ModeGA, ModeRC} {
		t.Run(mode.String(), func(t *testing.T) {
			remote := NewServer(WithMode(mode), WithTLS(), WithRootCredentials(remoteAK, remoteSK))
			t.Cleanup(remote.Close)
			remote.CreateBucket("cold", false)
			p := newPair(t, mode, WithRemoteAlias("s3.eu-west-1.wasabisys.com", remote.Addr()), WithCandidateProbe("wasabi"))
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
				want(t, got, 500, "TierAddFailed", "tier add failed. "+invalidConfigMsg)
			}
		})
	}
}

// A Wasabi tier builds an s3 backend, which trims "/" on both sides of
// the prefix (docs/rustfs-wire.md §18): "/w//" lists and writes under "w/".
func TestWasabiPrefixIsTrimmedOnBothSides(t *testing.T) {
	remote := NewServer(WithMode(ModeRC), WithTLS(), WithRootCredentials(remoteAK, remoteSK))
	t.Cleanup(remote.Close)
	remote.CreateBucket("cold", false)
	remote.PutObject("cold", "w/taken", []byte("x"))
	p := newPair(t, ModeRC, WithRemoteAlias("s3.eu-west-1.wasabisys.com", remote.Addr()))
	body := `{"type":"wasabi","wasabi":{"name":"W","accessKey":"` + remoteAK + `","secretKey":"` + remoteSK +
		`","bucket":"cold","prefix":"/w//","region":"eu-west-1"}}`
	want(t, p.add(t, []byte(body), ""), 500, "TierNameBackendInUse!", "tier backend is already in use")
	want(t, p.add(t, []byte(body), "force=true"), 200, "", "")
	remote.ResetCounters()
	want(t, p.admin(t, http.MethodGet, "/tier/W", "", nil), 200, "", "")
	for _, r := range remote.Requests() {
		if strings.Contains(r.Path, "probeobject") && r.Path != "/cold/w/probeobject" {
			t.Errorf("verify wrote %s %s, want /cold/w/probeobject", r.Method, r.Path)
		}
	}
}
