package rustfstest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// quota reads GET /quota/{bucket}: the limit (nil for none) and the usage.
func quota(t *testing.T, p pair, bucket string) (*uint64, uint64) {
	t.Helper()
	got := p.admin(t, http.MethodGet, "/quota/"+bucket, "", nil)
	if got.Status != http.StatusOK {
		t.Fatalf("get quota of %s: %d %s", bucket, got.Status, got.Body)
	}
	var a quotaAnswer
	if err := json.Unmarshal(got.Body, &a); err != nil {
		t.Fatal(err)
	}
	return a.Quota, a.Size
}

func putObj(t *testing.T, p pair, bucket, key string, n int) result {
	t.Helper()
	return do(t, p.local.URL(), req{method: http.MethodPut, path: "/" + bucket + "/" + key, body: bytes.Repeat([]byte("x"), n)})
}

// The quota routes as docs/rustfs-wire.md §21 records them.
func TestQuotaConformance(t *testing.T) {
	cases := map[string]struct {
		method, bucket, body string
		status               int
		code                 string
		limit                uint64 // stored afterwards, for an existing bucket
	}{
		"SetHard":             {http.MethodPut, "data", `{"quota":1024,"quota_type":"HARD"}`, 200, "", 1024},
		"SetDefaultsToHard":   {http.MethodPut, "data", `{"quota":2048}`, 200, "", 2048},
		"SizeIsTheLimitToo":   {http.MethodPut, "data", `{"size":4096}`, 200, "", 4096},
		"ZeroRemovesTheLimit": {http.MethodPut, "data", `{"quota":0,"quota_type":"HARD"}`, 200, "", 0},
		"EmptyBodyRemoves":    {http.MethodPut, "data", ``, 200, "", 0},
		"SoftIsRefused":       {http.MethodPut, "data", `{"quota":1024,"quota_type":"SOFT"}`, 400, "InvalidArgument", 512},
		"BadJSON":             {http.MethodPut, "data", `{`, 400, "InvalidRequest", 512},
		"SetOnMissingIs500":   {http.MethodPut, "missing", `{"quota":1024}`, 500, "InternalError", 0},
		"ClearOnMissingIs500": {http.MethodDelete, "missing", ``, 500, "InternalError", 0},
		"Clear":               {http.MethodDelete, "data", ``, 200, "", 0},
		"GetOnMissingIs404":   {http.MethodGet, "missing", ``, 404, "NoSuchBucket", 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, ModeRC)
			p.local.CreateBucket("data", false)
			p.local.SetBucketQuota("data", 512)
			got := p.admin(t, tc.method, "/quota/"+tc.bucket, "", []byte(tc.body))
			want(t, got, tc.status, tc.code, "")
			if tc.bucket == "data" {
				if l := p.local.BucketQuota("data"); l != tc.limit {
					t.Errorf("limit afterwards: want %d, got %d", tc.limit, l)
				}
			}
		})
	}
}

// The answer's size is the usage: every version's bytes, noncurrent ones
// included, delete markers none; a PUT over the hard limit is 400
// InvalidRequest and stores nothing (docs/rustfs-wire.md §21.3, §21.5).
func TestQuotaUsageAndEnforcement(t *testing.T) {
	p := newPair(t, ModeRC)
	p.local.CreateBucket("data", false)
	p.local.SetVersioning("data", "Enabled")
	want(t, p.admin(t, http.MethodPut, "/quota/data", "", []byte(`{"quota":1000}`)), 200, "", "")
	want(t, putObj(t, p, "data", "a", 400), 200, "", "")
	want(t, putObj(t, p, "data", "a", 400), 200, "", "") // the first is now noncurrent and still counts
	want(t, do(t, p.local.URL(), req{method: http.MethodDelete, path: "/data/a"}), 204, "", "")
	limit, usage := quota(t, p, "data")
	if limit == nil || *limit != 1000 || usage != 800 {
		t.Errorf("quota: want limit 1000 and usage 800, got %v and %d", limit, usage)
	}
	want(t, putObj(t, p, "data", "b", 201), 400, "InvalidRequest", "")
	want(t, putObj(t, p, "data", "b", 200), 200, "", "")
	if n := p.local.VersionCount("data"); n != 4 {
		t.Errorf("versions: want 4 (two of a, its delete marker, b), got %d", n)
	}
	want(t, p.admin(t, http.MethodDelete, "/quota/data", "", nil), 200, "", "")
	if limit, _ := quota(t, p, "data"); limit != nil {
		t.Errorf("cleared quota: want null, got %d", *limit)
	}
	want(t, putObj(t, p, "data", "c", 5000), 200, "", "")
}

// DeleteBucket refuses a bucket holding anything, delete markers and
// noncurrent versions included, though such a bucket lists no object; a
// force-delete header is never honoured (docs/rustfs-wire.md §22).
func TestDeleteBucketConformance(t *testing.T) {
	del := func(p pair, key string) { do(t, p.local.URL(), req{method: http.MethodDelete, path: "/data/" + key}) }
	cases := map[string]struct {
		seed   func(p pair)
		bucket string
		header http.Header
		status int
		code   string
	}{
		"Empty":  {func(pair) {}, "data", nil, 204, ""},
		"Object": {func(p pair) { p.local.PutObject("data", "k", []byte("v")) }, "data", nil, 409, "BucketNotEmpty"},
		"OnlyDeleteMarker": {func(p pair) {
			p.local.SetVersioning("data", "Enabled")
			del(p, "k")
		}, "data", nil, 409, "BucketNotEmpty"},
		"NoncurrentVersionAndMarker": {func(p pair) {
			p.local.SetVersioning("data", "Enabled")
			p.local.PutObject("data", "k", []byte("v"))
			del(p, "k")
		}, "data", nil, 409, "BucketNotEmpty"},
		"Missing":     {func(pair) {}, "missing", nil, 404, "NoSuchBucket"},
		"ForceHeader": {func(pair) {}, "data", http.Header{"X-Rustfs-Force-Delete": {"true"}}, 501, "NotImplemented"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, ModeRC)
			p.local.CreateBucket("data", false)
			tc.seed(p)
			if keys := p.local.Objects("data"); name != "Object" && len(keys) != 0 {
				t.Fatalf("seed: want a bucket that lists no object, got %v", keys)
			}
			got := do(t, p.local.URL(), req{method: http.MethodDelete, path: "/" + tc.bucket, header: tc.header})
			want(t, got, tc.status, tc.code, "")
			if gone := !p.local.HasBucket("data"); gone != (tc.status == 204) {
				t.Errorf("bucket data deleted: want %t, got %t", tc.status == 204, gone)
			}
		})
	}
}
