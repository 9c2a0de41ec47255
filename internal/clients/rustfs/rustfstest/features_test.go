package rustfstest

import (
	"encoding/xml"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestFaultInjection(t *testing.T) {
	p := newPair(t, ModeRC)
	list := req{method: http.MethodGet, path: "/rustfs/admin/v3/tier"}
	p.local.InjectFault(RouteListTiers, Fault{Status: 503, Code: "SlowDown", Message: "slow", Times: 1})
	want(t, do(t, p.local.URL(), list), 503, "SlowDown", "slow")
	want(t, do(t, p.local.URL(), list), 200, "", "")
	p.local.InjectFault(RouteListTiers, Fault{Latency: 50 * time.Millisecond})
	start := time.Now()
	want(t, do(t, p.local.URL(), list), 200, "", "")
	if time.Since(start) < 50*time.Millisecond {
		t.Error("latency fault did not delay")
	}
	p.local.InjectFault(RouteListTiers, Fault{Reset: true})
	hr, _ := http.NewRequest(http.MethodGet, p.local.URL()+list.path, nil)
	signReq(t, hr, list)
	if resp, err := http.DefaultClient.Do(hr); err == nil {
		resp.Body.Close()
		t.Error("reset fault: want a transport error")
	}
	p.local.ClearFaults()
	want(t, do(t, p.local.URL(), list), 200, "", "")
}

func TestCountersWritesAndRequestLog(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	p := newPair(t, ModeRC, WithRequestLog(func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, f)
	}))
	want(t, p.add(t, p.tierJSON("COLD"), "secretKey=should-not-be-logged"), 200, "", "")
	want(t, p.add(t, p.tierJSON("COLD"), ""), 500, "TierNameAlreadyExist", "")
	p.admin(t, http.MethodGet, "/tier", "", nil)
	if p.local.Writes() != 2 || p.local.Count(RouteAddTier) != 2 || p.local.Count(RouteListTiers) != 1 {
		t.Errorf("writes %d, counts %v", p.local.Writes(), p.local.Counts())
	}
	reqs := p.local.Requests()
	if len(reqs) != 3 || reqs[0] != (RequestRecord{Method: "PUT", Path: "/rustfs/admin/v3/tier", Route: RouteAddTier, Status: 200}) {
		t.Errorf("requests: %+v", reqs)
	}
	for _, r := range reqs {
		if strings.Contains(r.Path, "should-not") {
			t.Error("request log holds the query")
		}
	}
	mu.Lock()
	if len(logged) != 3 {
		t.Errorf("logged %d lines", len(logged))
	}
	mu.Unlock()
	p.local.ResetCounters()
	if p.local.Writes() != 0 || len(p.local.Requests()) != 0 || len(p.local.Counts()) != 0 {
		t.Error("ResetCounters left state")
	}
}

func TestInjectableClockDrivesSkew(t *testing.T) {
	past := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := NewServer(WithClock(func() time.Time { return past }))
	defer srv.Close()
	list := req{method: http.MethodGet, path: "/rustfs/admin/v3/tier"}
	want(t, do(t, srv.URL(), list), 403, "RequestTimeTooSkewed", "")
	list.at = past.Add(time.Minute)
	want(t, do(t, srv.URL(), list), 200, "", "")
}

func TestBucketRoutes(t *testing.T) {
	srv := NewServer(WithRegion("eu-central-1"))
	defer srv.Close()
	u := srv.URL()
	want(t, do(t, u, req{method: http.MethodHead, path: "/bk1"}), 404, "", "")
	want(t, do(t, u, req{method: http.MethodPut, path: "/B_bad"}), 400, "InvalidBucketName", "")
	want(t, do(t, u, req{method: http.MethodPut, path: "/bk1", header: http.Header{"X-Amz-Bucket-Object-Lock-Enabled": {"true"}}}), 200, "", "")
	want(t, do(t, u, req{method: http.MethodPut, path: "/bk1"}), 200, "", "") // owner re-create
	want(t, do(t, u, req{method: http.MethodHead, path: "/bk1"}), 200, "", "")
	loc := do(t, u, req{method: http.MethodGet, path: "/bk1", query: "location="})
	if !strings.Contains(string(loc.Body), ">eu-central-1</LocationConstraint>") {
		t.Errorf("location: %s", loc.Body)
	}
	lock := do(t, u, req{method: http.MethodGet, path: "/bk1", query: "object-lock="})
	if !strings.Contains(string(lock.Body), "<ObjectLockEnabled>Enabled</ObjectLockEnabled>") {
		t.Errorf("object lock: %s", lock.Body)
	}
	want(t, do(t, u, req{method: http.MethodPut, path: "/bk1", query: "versioning=",
		body: []byte(`<VersioningConfiguration><Status>Suspended</Status></VersioningConfiguration>`)}), 409, "InvalidBucketState", "")
	srv.CreateBucket("bk2", false)
	want(t, do(t, u, req{method: http.MethodGet, path: "/bk2", query: "object-lock="}), 404, "ObjectLockConfigurationNotFoundError", "")
	want(t, do(t, u, req{method: http.MethodPut, path: "/bk2", query: "versioning=",
		body: []byte(`<VersioningConfiguration><Status>On</Status></VersioningConfiguration>`)}), 400, "InvalidArgument", "")
	want(t, do(t, u, req{method: http.MethodGet, path: "/bk2", query: "acl="}), 501, "NotImplemented", "")
}

func TestListObjectsV2PrefixDelimiterMaxKeys(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	for _, k := range []string{"a/1", "a/2", "a/sub/3", "ab", "b"} {
		srv.PutObject("bk", k, []byte(k))
	}
	type listResult struct {
		KeyCount       int
		IsTruncated    bool
		Contents       []struct{ Key string }
		CommonPrefixes []struct{ Prefix string }
		NextToken      string `xml:"NextContinuationToken"`
	}
	list := func(q string) listResult {
		var r listResult
		_ = xml.Unmarshal(do(t, srv.URL(), req{method: http.MethodGet, path: "/bk", query: q}).Body, &r)
		return r
	}
	r := list("list-type=2&prefix=a%2F&delimiter=%2F")
	if r.KeyCount != 3 || len(r.Contents) != 2 || len(r.CommonPrefixes) != 1 || r.CommonPrefixes[0].Prefix != "a/sub/" {
		t.Errorf("prefix+delimiter: %+v", r)
	}
	r = list("list-type=2&prefix=a&delimiter=%2F&max-keys=1")
	if r.KeyCount != 1 || !r.IsTruncated || len(r.CommonPrefixes) != 1 {
		t.Errorf("max-keys=1: %+v", r)
	}
	r = list("list-type=2&prefix=a&delimiter=%2F&max-keys=1&continuation-token=" + r.NextToken)
	if r.KeyCount != 1 || len(r.Contents) != 1 || r.Contents[0].Key != "ab" {
		t.Errorf("continuation: %+v", r)
	}
	r = list("list-type=2&prefix=zzz&max-keys=1")
	if r.KeyCount != 0 || r.IsTruncated {
		t.Errorf("empty prefix: %+v", r)
	}
}
