package rustfstest

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

// One conformance test per point of docs/rustfs-wire.md §13 (the GA addendum), named after
// it; §12.10 lists what GA mode must do. 13.8 onwards are in
// conformance_ga2_test.go.

// routes returns the routes a server saw, in order.
func routes(s *Server) []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Route)
	}
	return out
}

// probeRoutes are the remote calls of one GA probe (docs/rustfs-wire.md §18.2 steps 2-6).
var probeRoutes = []string{RoutePutObject, RouteGetVersioning, RouteListVersions, RouteGetObject,
	RouteDeleteObject, RouteGetVersioning, RouteListVersions}

func sameRoutes(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s: remote routes\n got %v\nwant %v", what, got, want)
	}
}

// withSecret returns the pair's add body with the secret key replaced.
func (p pair) withSecret(name, sk string) []byte {
	return bytes.ReplaceAll(p.tierJSON(name), []byte(`"secretKey":"`+remoteSK+`"`), []byte(`"secretKey":"`+sk+`"`))
}

// docs/rustfs-wire.md §13.1: the probe object comes first, with or without force; the in-use
// listing only without force. (Replaces the v0.1 test that pinned the
// in-use listing before the probe.)
func TestGA13_1AddProbesFirstWithOrWithoutForce(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	sameRoutes(t, "add", routes(p.remote), append(append([]string{}, probeRoutes...), RouteListObjects))
	reqs := p.remote.Requests()
	if !strings.HasPrefix(reqs[0].Path, "/cold/tiered/rustfs-tier-probe-") || len(reqs[0].Path) != len("/cold/tiered/rustfs-tier-probe-")+36 {
		t.Errorf("probe object: %s, want /cold/tiered/rustfs-tier-probe-<uuid>", reqs[0].Path)
	}
	if n := p.remote.VersionCount("cold"); n != 0 {
		t.Errorf("the probe left %d versions behind", n)
	}
	p.remote.ResetCounters()
	want(t, p.add(t, p.tierJSON("FORCED"), "force=true"), 200, "", "")
	sameRoutes(t, "forced add", routes(p.remote), probeRoutes)

	// The probe fails before the in-use check could: a non-empty prefix and
	// refused keys answer the probe's failure, not 409.
	p.remote.PutObject("cold", "tiered/x", []byte("x"))
	want(t, p.add(t, p.withSecret("WRONG", "wrong"), ""), 500, "TierAddFailed", "tier add failed. "+uncertainMsg)
}

// docs/rustfs-wire.md §13.1, §4.3: refused keys fail the probe PUT and its compensation, with or
// without force, as 500 TierAddFailed "…probe outcome is uncertain…"; a
// versioned remote is probed by exact version and left clean. (Replaces the
// v0.1 tests that pinned 400 InvalidArgument for refused keys.)
func TestGA13_1RefusedProbeIs500TierAddFailed(t *testing.T) {
	p := newPair(t, ModeGA)
	for _, q := range []string{"", "force=true"} {
		want(t, p.add(t, p.withSecret("COLD", "wrong"), q), 500, "TierAddFailed", "tier add failed. "+uncertainMsg)
	}
	if len(p.local.Tiers()) != 0 {
		t.Error("a refused add registered a tier")
	}
	p.remote.SetVersioning("cold", "Enabled")
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	if n := p.remote.VersionCount("cold"); n != 0 {
		t.Errorf("the probe of a versioned remote left %d versions or delete markers", n)
	}
}

// docs/rustfs-wire.md §13.2: a credential edit validates the new keys and probes the remote with
// them; the remote's refusal is 500 TierEditFailed and the stored keys stay.
// Both keys empty keeps and re-probes the stored keys; one key, or a
// REDACTED one, is TierMissingCredentials.
func TestGA13_2CredentialEditProbesTheRemote(t *testing.T) {
	p := newPair(t, ModeGA)
	p.remote.SetUser("rotated", "rotated-sk", "s3:*")
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.ResetCounters()
	edit := func(body string) result { return p.admin(t, http.MethodPost, "/tier/COLD", "", []byte(body)) }

	want(t, edit(`{"accessKey":"rotated","secretKey":"rotated-sk"}`), 200, "", "")
	sameRoutes(t, "edit", routes(p.remote), probeRoutes)
	if rec, _ := p.local.Tier("COLD"); rec.AccessKey != "rotated" || rec.SecretKey != "rotated-sk" {
		t.Errorf("after the edit: access key %q; want the rotated keys", rec.AccessKey)
	}
	want(t, edit(`{"accessKey":"unknown","secretKey":"nope"}`), 500, "TierEditFailed", "tier edit failed. "+uncertainMsg)
	if rec, _ := p.local.Tier("COLD"); rec.AccessKey != "rotated" || rec.SecretKey != "rotated-sk" {
		t.Errorf("a refused edit changed the stored keys: access key %q", rec.AccessKey)
	}
	p.remote.ResetCounters()
	want(t, edit(`{}`), 200, "", "")
	sameRoutes(t, "edit without keys", routes(p.remote), probeRoutes)
	want(t, edit(`{"accessKey":"only"}`), 500, "TierMissingCredentials", "tier credentials are required")
	want(t, edit(`{"accessKey":"a","secretKey":"REDACTED"}`), 500, "TierMissingCredentials", "tier credentials are required")
}

// docs/rustfs-wire.md §13.3: force skips the lifecycle-reference check of remove; objects
// transitioned to the tier still block it. (Replaces the v0.1 test that
// refused a forced remove over a lifecycle rule.)
func TestGA13_3ForceRemoveSkipsLifecycleReferences(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.local.CreateBucket("data", false)
	want(t, putLC(t, p, "data", lcBody(`<Rule><Status>Enabled</Status><NoncurrentVersionTransition><NoncurrentDays>1</NoncurrentDays><StorageClass>COLD</StorageClass></NoncurrentVersionTransition></Rule>`)), 200, "", "")
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "", nil), 409, "XMinioAdminTierBackendInUse", "Specified remote tier is already in use")
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "force=true", nil), 200, "", "")
	want(t, putLC(t, p, "data", lcBody(`<Rule><Status>Enabled</Status><NoncurrentVersionTransition><NoncurrentDays>1</NoncurrentDays><StorageClass>COLD</StorageClass></NoncurrentVersionTransition></Rule>`)),
		400, "InvalidArgument", "invalid tier.")

	p.local.SeedTier(TierRecord{Type: "rustfs", Name: "WARM"})
	p.local.MarkTransitioned("data", "k", "WARM")
	want(t, p.admin(t, http.MethodDelete, "/tier/WARM", "force=true", nil), 409, "XMinioAdminTierBackendInUse", "")
}

// docs/rustfs-wire.md §13.4: a 409 on add is also what a remote that does not answer within the
// validation deadline gets; the body cannot tell the two apart.
func TestGA13_4A409IsNotOnlyANonEmptyPrefix(t *testing.T) {
	p := newPair(t, ModeGA, WithProbeTimeout(300*time.Millisecond))
	p.remote.PutObject("cold", "tiered/x", []byte("x"))
	inUse := p.add(t, p.tierJSON("COLD"), "")
	want(t, inUse, 409, "XMinioAdminTierBackendInUse", "Specified remote tier is already in use")
	p.remote.DeleteObject("cold", "tiered/x")
	p.remote.InjectFault(RoutePutObject, Fault{Latency: 2 * time.Second, Times: 1})
	timedOut := p.add(t, p.tierJSON("SLOW"), "")
	want(t, timedOut, 409, "XMinioAdminTierBackendInUse", "Specified remote tier is already in use")
	if inUse.Code != timedOut.Code || inUse.Message != timedOut.Message {
		t.Errorf("the answers differ: %q %q vs %q %q", inUse.Code, inUse.Message, timedOut.Code, timedOut.Message)
	}
}

// docs/rustfs-wire.md §13.5: a mutation of a tier that is already being replaced is 400
// InvalidArgument in GA (500 TierAddFailed in rc), although it is transient.
func TestGA13_5TransientFailuresAre400(t *testing.T) {
	for _, tc := range []struct {
		mode          Mode
		status        int
		code, message string
	}{
		{ModeGA, 400, "InvalidArgument", alreadyReplaced},
		{ModeRC, 500, "TierAddFailed", "tier add failed. " + alreadyReplaced},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			p := newPair(t, tc.mode)
			route := RoutePutObject
			if tc.mode == ModeRC {
				route = RouteListObjects
			}
			p.remote.InjectFault(route, Fault{Latency: 500 * time.Millisecond, Times: 1})
			first := make(chan result, 1)
			go func() { first <- p.add(t, p.tierJSON("COLD"), "") }()
			waitFor(t, func() bool { return p.remote.Count(route) > 0 })
			want(t, p.add(t, p.tierJSON("COLD"), ""), tc.status, tc.code, tc.message)
			want(t, <-first, 200, "", "")
		})
	}
}

// docs/rustfs-wire.md §13.6: when the probe PUT is refused but the remote still lists, RustFS
// polls the candidate listing about once a second until the deadline
// before it answers "Tier Perm Err".
func TestGA13_6RefusedPutIsCompensatedUntilTheDeadline(t *testing.T) {
	p := newPair(t, ModeGA, WithProbeTimeout(2*time.Second))
	p.remote.SetUser("lister", "lister-sk", "s3:ListBucket", "s3:ListBucketVersions", "s3:GetBucketVersioning")
	body := bytes.ReplaceAll(p.tierJSON("COLD"), []byte(`"accessKey":"`+remoteAK+`","secretKey":"`+remoteSK+`"`),
		[]byte(`"accessKey":"lister","secretKey":"lister-sk"`))
	want(t, p.add(t, body, ""), 500, "TierAddFailed", "tier add failed. Tier Perm Err")
	if n := p.remote.Count(RouteListVersions); n < 3 {
		t.Errorf("candidate listings after the refused PUT: %d, want one per second until the deadline and a final one", n)
	}
}

// docs/rustfs-wire.md §13.7: RustFS's types and their own rules; a remote that answers like
// Cloudflare R2 is refused by the GA probe, and the probe object is cleaned
// up.
func TestGA13_7TypesAndR2(t *testing.T) {
	p := newPair(t, ModeGA)
	r2 := NewServer(WithRootCredentials(remoteAK, remoteSK), WithR2PutVersionIDs())
	t.Cleanup(r2.Close)
	r2.CreateBucket("cold", false)
	body := strings.NewReplacer(`"type":"rustfs","rustfs"`, `"type":"r2","r2"`, p.remote.TierURL(), r2.TierURL()).Replace(string(p.tierJSON("R2")))
	want(t, p.add(t, []byte(body), ""), 400, "InvalidArgument", invalidConfigMsg)
	if n := r2.VersionCount("cold"); n != 0 {
		t.Errorf("the refused R2 probe left %d versions", n)
	}
	cases := map[string]struct {
		body          string
		status        int
		code, message string
	}{
		"AzureServicePrincipal": {body: `{"type":"azure","azure":{"name":"AZ","endpoint":"https://a.blob.example","accessKey":"acct","secretKey":"k","bucket":"c","spAuth":{"tenant_id":"t","client_id":"c","client_secret":"s"}}}`,
			status: 400, code: "InvalidArgument", message: "Azure remote tiers do not support storageClass or spAuth yet; leave both unset"},
		"AzureStorageClass": {body: `{"type":"azure","azure":{"name":"AZ","endpoint":"https://a.blob.example","accessKey":"acct","secretKey":"k","bucket":"c","storageClass":"COOL"}}`,
			status: 400, code: "InvalidArgument", message: "Azure remote tiers do not support storageClass or spAuth yet; leave both unset"},
		"WasabiUnknownField": {body: `{"type":"wasabi","wasabi":{"name":"W","accessKey":"a","secretKey":"b","bucket":"c","region":"us-east-1","storageClass":"x"}}`,
			status: 400, code: "InvalidRequest"},
		"WasabiMissingRegion": {body: `{"type":"wasabi","wasabi":{"name":"W","accessKey":"a","secretKey":"b","bucket":"c"}}`,
			status: 400, code: "InvalidRequest"},
		"WasabiOtherEndpoint": {body: `{"type":"wasabi","wasabi":{"name":"W","endpoint":"https://s3.example.com","accessKey":"a","secretKey":"b","bucket":"c","region":"eu-west-1"}}`,
			status: 400, code: "InvalidArgument", message: "Wasabi endpoint must be https://s3.eu-west-1.wasabisys.com"},
		"GCSNotAServiceAccount": {body: `{"type":"gcs","gcs":{"name":"G","endpoint":"https://storage.googleapis.com","creds":"{\"type\":\"authorized_user\"}","bucket":"c"}}`,
			status: 400, code: "InvalidArgument", message: "GCS credentials must describe a service account"},
		"GCSNotJSON": {body: `{"type":"gcs","gcs":{"name":"G","endpoint":"https://storage.googleapis.com","creds":"nope","bucket":"c"}}`,
			status: 400, code: "InvalidArgument", message: "GCS credentials must be valid service account JSON"},
		"GCSWithoutCreds": {body: `{"type":"gcs","gcs":{"name":"G","endpoint":"https://storage.googleapis.com","bucket":"c"}}`,
			status: 500, code: "TierAddFailed", message: "tier add failed. " + missingCredsMsg},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want(t, p.add(t, []byte(tc.body), ""), tc.status, tc.code, tc.message)
		})
	}
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 5 seconds")
}
