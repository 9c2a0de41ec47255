package rustfstest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// docs/rustfs-wire.md §12.3 and §12.4: add checks in order with their wire errors.
func TestAddChecksInOrderRC(t *testing.T) {
	cases := map[string]struct {
		body          func(p pair) []byte
		query         string
		status        int
		code, message string
	}{
		"NotUppercaseBeforeReserved": {body: func(p pair) []byte { return p.tierJSON("standard") },
			status: 500, code: "TierNameNotUppercase", message: "tier name must be uppercase"},
		"ReservedIsInvalidRequest400": {body: func(p pair) []byte { return p.tierJSON("REDUCED_REDUNDANCY") },
			status: 400, code: "InvalidRequest", message: "Cannot use reserved tier name"},
		"InvalidJSONIsInvalidRequest": {body: func(pair) []byte { return []byte(`{"type":`) },
			status: 400, code: "InvalidRequest"},
		"UppercaseTypeIsUnknownVariant": {body: func(pair) []byte { return []byte(`{"type":"S3","S3":{"name":"A"}}`) },
			status: 400, code: "InvalidRequest"},
		"NullIsATypeError": {body: func(pair) []byte { return []byte(`{"type":"minio","minio":{"name":"A","prefix":null}}`) },
			status: 400, code: "InvalidRequest"},
		"MissingTypedObject": {body: func(pair) []byte { return []byte(`{"type":"minio","s3":{"name":"A"}}`) },
			status: 400, code: "InvalidRequest", message: "missing MinIO configuration"},
		"InvalidForceFlag": {body: func(p pair) []byte { return p.tierJSON("COLD") }, query: "force=True",
			status: 400, code: "InvalidRequest", message: "invalid force flag"},
		"DuplicateQueryKey": {body: func(p pair) []byte { return p.tierJSON("COLD") }, query: "force=true&force=false",
			status: 400, code: "InvalidArgument", message: "failed to decode query"},
		"MissingKeysIsInvalidConfig": {
			body: func(pair) []byte {
				return []byte(`{"type":"minio","minio":{"name":"A","endpoint":"http://127.0.0.1:1","bucket":"b"}}`)
			},
			status: 500, code: "TierAddFailed",
			message: "tier add failed. Unable to setup remote tier, check tier configuration: both access and secret keys are required"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, ModeRC)
			want(t, p.add(t, tc.body(p), tc.query), tc.status, tc.code, tc.message)
			if len(p.local.Tiers()) != 0 {
				t.Error("a refused add registered a tier")
			}
		})
	}
}

func TestAddDuplicateIsTierNameAlreadyExist(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.PutObject("cold", "tiered/x", []byte("x")) // duplicate is checked before the in-use probe
	want(t, p.add(t, p.tierJSON("COLD"), ""), 500, "TierNameAlreadyExist", "tier name already exists")
}

func TestAddS3RefusesLoopbackAndPrivateEndpoints(t *testing.T) {
	for _, host := range []string{"127.0.0.1:9000", "localhost:9000", "10.1.2.3", "192.168.0.1", "169.254.169.254", "[::1]:9000", "0.0.0.0"} {
		t.Run(host, func(t *testing.T) {
			p := newPair(t, ModeRC)
			body := `{"type":"s3","s3":{"name":"A","endpoint":"http://` + host + `","accessKey":"a","secretKey":"b","bucket":"c"}}`
			got := p.add(t, []byte(body), "force=true")
			want(t, got, 500, "TierAddFailed", "")
			if !strings.Contains(got.Message, "Unable to setup remote tier, check tier configuration: tier endpoint is not allowed") {
				t.Errorf("message %q", got.Message)
			}
		})
	}
}

func TestAddRustFSAllowsLoopbackAndS3UsesAlias(t *testing.T) {
	remote := NewServer(WithMode(ModeRC), WithRootCredentials(remoteAK, remoteSK))
	defer remote.Close()
	remote.CreateBucket("cold", false)
	local := NewServer(WithMode(ModeRC), WithRemoteAlias("s3.example.test", remote.Addr()))
	defer local.Close()
	p := pair{local: local, remote: remote}
	want(t, p.add(t, p.tierJSON("LOCAL"), ""), 200, "", "")
	body := `{"type":"s3","s3":{"name":"AWS","endpoint":"http://s3.example.test","accessKey":"` + remoteAK +
		`","secretKey":"` + remoteSK + `","bucket":"cold","prefix":"/aws/","region":"us-east-1","storageClass":"GLACIER"}}`
	want(t, p.add(t, []byte(body), ""), 200, "", "")
}

func TestAddInUseProbeIsOneListObjectsV2(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	if n := p.remote.Count(RouteListObjects); n != 1 || len(p.remote.Requests()) != 1 {
		t.Errorf("remote requests: %v", p.remote.Requests())
	}
}

func TestAddNonEmptyPrefixIsBackendInUseBang(t *testing.T) {
	p := newPair(t, ModeRC)
	p.remote.PutObject("cold", "tiered-other/x", []byte("x")) // a prefix match without the slash counts (docs/rustfs-wire.md §4)
	want(t, p.add(t, p.tierJSON("COLD"), "force=false"), 500, "TierNameBackendInUse!", "tier backend is already in use")
}

func TestAddForceSkipsEveryRemoteCallRC(t *testing.T) {
	p := newPair(t, ModeRC)
	p.remote.PutObject("cold", "tiered/x", []byte("x"))
	body := bytes.ReplaceAll(p.tierJSON("COLD"), []byte(remoteSK), []byte("wrong"))
	want(t, p.add(t, body, "force=true"), 200, "", "")
	if n := len(p.remote.Requests()); n != 0 {
		t.Errorf("force add made %d remote calls", n)
	}
}

func TestAddRemoteFailureIsTierPermErr(t *testing.T) {
	p := newPair(t, ModeRC)
	body := bytes.ReplaceAll(p.tierJSON("COLD"), []byte(remoteAK), []byte("unknown"))
	got := p.add(t, body, "")
	want(t, got, 500, "TierAddFailed",
		"tier add failed. Tier Perm Err.remote tier request failed with status 403 Forbidden: InvalidAccessKeyId")
}

// docs/rustfs-wire.md §12.5: list.
func TestListRedactsSecretsAndHasNoTopLevelName(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	got := p.admin(t, http.MethodGet, "/tier", "", nil)
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(got.Body, &list); err != nil || len(list) != 1 {
		t.Fatalf("list: %v %s", err, got.Body)
	}
	if _, ok := list[0]["name"]; ok {
		t.Error("list element has a top-level name")
	}
	var inner map[string]string
	_ = json.Unmarshal(list[0]["rustfs"], &inner)
	if inner["secretKey"] != "REDACTED" || inner["accessKey"] != remoteAK || inner["name"] != "COLD" {
		t.Errorf("list element: %s", list[0]["rustfs"])
	}
	if bytes.Contains(got.Body, []byte(remoteSK)) {
		t.Error("list shows the secret key")
	}
}

func TestListQueryWithoutBucketIs400(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.admin(t, http.MethodGet, "/tier", "anything=1", nil), 400, "InvalidArgument", "get query failed")
	want(t, p.admin(t, http.MethodGet, "/tier", "bucket=x", nil), 200, "", "")
}

// docs/rustfs-wire.md §12.6: edit.
func TestEditChangesOnlyCredentialsWithoutRemoteCall(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.ResetCounters()
	want(t, p.admin(t, http.MethodPost, "/tier/COLD", "", []byte(`{"accessKey":"NEW","secretKey":"NEWSK","endpoint":"x"}`)), 200, "", "")
	rec, _ := p.local.Tier("COLD")
	if rec.AccessKey != "NEW" || rec.SecretKey != "NEWSK" || rec.Endpoint != p.remote.TierURL() {
		t.Errorf("after edit: access key %q, endpoint %q", rec.AccessKey, rec.Endpoint)
	}
	if n := len(p.remote.Requests()); n != 0 {
		t.Errorf("edit made %d remote calls", n)
	}
}

func TestEditErrors(t *testing.T) {
	p := newPair(t, ModeRC)
	p.local.SeedTier(TierRecord{Type: "minio", Name: "MIN", AccessKey: "a", SecretKey: "s"})
	p.local.SeedTier(TierRecord{Type: "s3", Name: "AWS", Endpoint: "https://s3.example.test", Bucket: "b", AccessKey: "a", SecretKey: "s"})
	want(t, p.admin(t, http.MethodPost, "/tier/NOPE", "", []byte(`{"accessKey":"a","secretKey":"b"}`)), 500, "TierNotFound", "tier not found")
	want(t, p.admin(t, http.MethodPost, "/tier/min", "", []byte(`{"accessKey":"a","secretKey":"b"}`)), 500, "TierNotFound", "tier not found")
	want(t, p.admin(t, http.MethodPost, "/tier/MIN", "", []byte(`{"access":"a","secret":"b"}`)), 500, "TierMissingCredentials", "tier credentials are required")
	// docs/rustfs-wire.md §5 hazard: an s3 edit without both keys persists "REDACTED".
	want(t, p.admin(t, http.MethodPost, "/tier/AWS", "", []byte(`{"accessKey":"only"}`)), 200, "", "")
	if rec, _ := p.local.Tier("AWS"); rec.SecretKey != "REDACTED" || rec.AccessKey != "a" {
		t.Errorf("s3 edit without both keys: secret redacted %t, access key %q", rec.SecretKey == "REDACTED", rec.AccessKey)
	}
}

// docs/rustfs-wire.md §12.7: remove.
func TestRemoveSemanticsRC(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.admin(t, http.MethodDelete, "/tier/NEVER", "", nil), 200, "", "")
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.PutObject("cold", "tiered/obj", []byte("x"))
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "force=false", nil), 500, "TierNameBackendInUse", "tier backend is not empty")
	p.local.MarkTransitioned("data", "k", "COLD")
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "force=true", nil), 500, "TierNameBackendInUse", "tier backend is not empty")
	p.local.DeleteObject("data", "k")
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "force=true", nil), 200, "", "")
	if len(p.local.Tiers()) != 0 {
		t.Error("tier still registered")
	}
}

func TestRCLifecycleReferenceDoesNotBlockRemove(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	_ = p.local.SetLifecycleXML("data", []byte(`<LifecycleConfiguration><Rule><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>COLD</StorageClass></Transition></Rule></LifecycleConfiguration>`))
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "", nil), 200, "", "")
}

// docs/rustfs-wire.md §12.8: verify.
func TestVerifyWritesReadsDeletesProbeObject(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.ResetCounters()
	want(t, p.admin(t, http.MethodGet, "/tier/COLD", "", nil), 200, "", "")
	for _, r := range []string{RoutePutObject, RouteGetObject, RouteDeleteObject} {
		if p.remote.Count(r) != 1 {
			t.Errorf("remote %s count %d", r, p.remote.Count(r))
		}
	}
	if reqs := p.remote.Requests(); len(reqs) == 0 || reqs[0].Path != "/cold/tiered/probeobject" {
		t.Errorf("probe requests: %v", reqs)
	}
	want(t, p.admin(t, http.MethodGet, "/tier/NOPE", "", nil), 500, "TierNotFound", "tier not found!")
	want(t, p.admin(t, http.MethodGet, "/tier/%20", "tier=COLD", nil), 200, "", "")
	want(t, p.admin(t, http.MethodGet, "/tier/%20", "", nil), 400, "InvalidArgument", "tier is required")
	p.remote.InjectFault(RoutePutObject, Fault{Status: 403, Code: "AccessDenied"})
	want(t, p.admin(t, http.MethodGet, "/tier/COLD", "", nil), 500, "TierVerificationFailed", "tier verification failed. Tier Perm Err")
}

func TestTierStatsRCIsLegacyMap(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.admin(t, http.MethodGet, "/tier-stats", "", nil), 200, "", "")
	p.local.SeedTierStats("COLD", TierStat{TotalSize: 3, NumVersions: 2, NumObjects: 1})
	got := p.admin(t, http.MethodGet, "/tier-stats", "tier=cold", nil)
	if string(got.Body) != `{"COLD":{"total_size":3,"num_versions":2,"num_objects":1}}` {
		t.Errorf("tier-stats: %s", got.Body)
	}
	want(t, p.admin(t, http.MethodGet, "/tier-stats", "tier=", nil), 400, "InvalidArgument", "tier is required")
}

func TestClearTiersNeedsDailyToken(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	want(t, p.admin(t, http.MethodPost, "/tier/clear", "rand=x&other=1", nil), 400, "InvalidArgument", "unknown clear-tier query parameter")
	want(t, p.admin(t, http.MethodPost, "/tier/clear", "rand="+ClearToken(timeNow())+"&force=true", nil), 200, "", "")
	if len(p.local.Tiers()) != 0 {
		t.Error("clear left tiers")
	}
}

func TestClearTokenMatchesWireExample(t *testing.T) {
	if got := ClearToken(time.Date(2026, 8, 23, 12, 0, 0, 0, time.UTC)); got != "AGD231R25GI3I1GJGAugust2026UGJFD7FBS4DFAASDF" {
		t.Errorf("ClearToken: %s", got)
	}
}
