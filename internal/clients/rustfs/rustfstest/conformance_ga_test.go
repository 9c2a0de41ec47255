package rustfstest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// Each GA difference of docs/rustfs-wire.md §12.10 has its own test.

func TestGAAddInUseIs409BackendInUse(t *testing.T) {
	p := newPair(t, ModeGA)
	p.remote.PutObject("cold", "tiered/x", []byte("x"))
	want(t, p.add(t, p.tierJSON("COLD"), ""), 409, "XMinioAdminTierBackendInUse", "Specified remote tier is already in use")
}

func TestGARemoveNonEmptyIs400BackendNotEmpty(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.remote.PutObject("cold", "tiered/x", []byte("x"))
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "", nil), 400, "XMinioAdminTierBackendNotEmpty",
		"Specified remote backend is not empty")
}

func TestGAInvalidConfigIs400InvalidArgument(t *testing.T) {
	p := newPair(t, ModeGA)
	bad := bytes.ReplaceAll(p.tierJSON("COLD"), []byte(remoteSK), []byte("wrong"))
	want(t, p.add(t, bad, ""), 400, "InvalidArgument", "Unable to setup remote tier, check tier configuration")
	s3 := []byte(`{"type":"s3","s3":{"name":"A","endpoint":"http://127.0.0.1:1","accessKey":"a","secretKey":"b","bucket":"c"}}`)
	want(t, p.add(t, s3, "force=true"), 400, "InvalidArgument", "Unable to setup remote tier, check tier configuration")
}

func TestGAAddWritesProbeObjectAfterInUseCheck(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	var routes []string
	for _, r := range p.remote.Requests() {
		routes = append(routes, r.Route)
	}
	wantRoutes := []string{RouteListObjects, RoutePutObject, RouteGetObject, RouteDeleteObject}
	if len(routes) != len(wantRoutes) {
		t.Fatalf("remote routes: %v", routes)
	}
	for i := range wantRoutes {
		if routes[i] != wantRoutes[i] {
			t.Errorf("remote routes: want %v, got %v", wantRoutes, routes)
		}
	}
	if keys := p.remote.Objects("cold"); len(keys) != 0 {
		t.Errorf("probe object left behind: %v", keys)
	}
}

func TestGAForceAddStillProbesObject(t *testing.T) {
	p := newPair(t, ModeGA)
	bad := bytes.ReplaceAll(p.tierJSON("COLD"), []byte(remoteSK), []byte("wrong"))
	want(t, p.add(t, bad, "force=true"), 400, "InvalidArgument", "Unable to setup remote tier, check tier configuration")
	if p.remote.Count(RouteListObjects) != 0 {
		t.Error("force add ran the in-use probe")
	}
}

func TestGALifecycleReferenceBlocksRemove(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	p.local.CreateBucket("data", false)
	want(t, putLC(t, p, "data", lcBody(`<Rule><Status>Enabled</Status><NoncurrentVersionTransition><NoncurrentDays>1</NoncurrentDays><StorageClass>COLD</StorageClass></NoncurrentVersionTransition></Rule>`)), 200, "", "")
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "force=true", nil), 409, "XMinioAdminTierBackendInUse", "")
	do(t, p.local.URL(), req{method: http.MethodDelete, path: "/data", query: "lifecycle="})
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "force=true", nil), 200, "", "")
}

func TestGATransitionedObjectBlocksRemoveWith409(t *testing.T) {
	p := newPair(t, ModeGA)
	p.local.SeedTier(TierRecord{Type: "rustfs", Name: "COLD"})
	p.local.MarkTransitioned("data", "k", "COLD")
	want(t, p.admin(t, http.MethodDelete, "/tier/COLD", "force=true", nil), 409, "XMinioAdminTierBackendInUse", "")
}

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

// Codes not listed as GA differences stay as in RC.
func TestGAKeepsRCCodesForExistsAndNotFound(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
	want(t, p.add(t, p.tierJSON("COLD"), ""), 500, "TierNameAlreadyExist", "tier name already exists")
	want(t, p.add(t, p.tierJSON("cold"), ""), 500, "TierNameNotUppercase", "tier name must be uppercase")
	want(t, p.admin(t, http.MethodPost, "/tier/NOPE", "", []byte(`{"accessKey":"a","secretKey":"b"}`)), 500, "TierNotFound", "tier not found")
}
