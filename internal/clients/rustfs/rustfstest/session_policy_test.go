package rustfstest

import (
	"net/http"
	"strings"
	"testing"
)

// teamPolicy lets a key list "data" under team/, read and write objects
// there, delete them except under team/keep (an explicit Deny), and locate
// "data".
const teamPolicy = `{"Version":"2012-10-17","Statement":[
 {"Effect":"Allow","Action":["s3:ListBucket"],"Resource":["arn:aws:s3:::data"],"Condition":{"StringLike":{"s3:prefix":["team/*"]}}},
 {"Effect":"Allow","Action":["s3:GetObject","s3:PutObject","s3:DeleteObject"],"Resource":["arn:aws:s3:::data/team/*"]},
 {"Effect":"Deny","Action":["s3:DeleteObject"],"Resource":["arn:aws:s3:::data/team/keep*"]},
 {"Effect":"Allow","Action":["s3:GetBucketLocation"],"Resource":["arn:aws:s3:::data"]}]}`

// teamCases are S3 calls with teamPolicy and their expected answers.
var teamCases = []struct {
	name          string
	method, path  string
	query         string
	status        int
	code          string
	bodyHasOrNone string
}{
	{"ListUnderPrefix", "GET", "/data", "list-type=2&prefix=team/", 200, "", "team/a.txt"},
	{"ListUnderDeeperPrefix", "GET", "/data", "list-type=2&prefix=team/ke", 200, "", "team/keep.txt"},
	{"ListWithoutPrefix", "GET", "/data", "list-type=2", 403, "AccessDenied", ""},
	{"ListOtherPrefix", "GET", "/data", "list-type=2&prefix=other/", 403, "AccessDenied", ""},
	{"ListPrefixWithoutSlash", "GET", "/data", "prefix=team", 403, "AccessDenied", ""},
	{"HeadBucketNeedsUnscopedList", "HEAD", "/data", "", 403, "", ""},
	{"Location", "GET", "/data", "location", 200, "", ""},
	{"GetInPrefix", "GET", "/data/team/a.txt", "", 200, "", "team/a.txt"},
	{"HeadInPrefix", "HEAD", "/data/team/a.txt", "", 200, "", ""},
	{"GetOutsidePrefix", "GET", "/data/other/b.txt", "", 403, "AccessDenied", ""},
	{"GetEscapingPrefix", "GET", "/data/team/../other/b.txt", "", 403, "AccessDenied", ""},
	{"GetOtherBucket", "GET", "/private/x.txt", "", 403, "AccessDenied", ""},
	{"ListOtherBucket", "GET", "/private", "prefix=team/", 403, "AccessDenied", ""},
	{"PutInPrefix", "PUT", "/data/team/new.txt", "", 200, "", ""},
	{"PutOutsidePrefix", "PUT", "/data/other/new.txt", "", 403, "AccessDenied", ""},
	{"DeleteDeniedExplicitly", "DELETE", "/data/team/keep.txt", "", 403, "AccessDenied", ""},
	{"DeleteInPrefix", "DELETE", "/data/team/a.txt", "", 204, "", ""},
	{"CreateBucket", "PUT", "/newbucket", "", 403, "AccessDenied", ""},
	{"ListBucketsShowsOnlyLocatable", "GET", "/", "", 200, "", "<Name>data</Name>"},
	{"AdminRoute", "GET", "/rustfs/admin/v3/tier", "", 403, "AccessDenied", ""},
}

// docs/rustfs-wire.md §16.7: a root-parented account with a session policy is allowed exactly
// what the policy allows on each S3 call, with RustFS's actions, resources,
// wildcards, s3:prefix conditions and explicit Deny.
func TestSessionPolicyEnforcement(t *testing.T) {
	for _, mode := range []Mode{ModeRC, ModeGA} {
		t.Run(mode.String(), func(t *testing.T) {
			s := NewServer(WithMode(mode))
			defer s.Close()
			for _, k := range []string{"team/a.txt", "team/keep.txt", "other/b.txt"} {
				s.PutObject("data", k, []byte(k))
			}
			s.PutObject("private", "x.txt", []byte("x"))
			want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(appAK, appSK, teamPolicy)), 200, "", "")
			for _, tc := range teamCases {
				got := do(t, s.URL(), req{method: tc.method, path: tc.path, query: tc.query, ak: appAK, sk: appSK, body: bodyFor(tc.method, tc.path)})
				if got.Status != tc.status || got.Code != tc.code || tc.bodyHasOrNone != "" && !strings.Contains(string(got.Body), tc.bodyHasOrNone) {
					t.Errorf("%s: %s %s?%s: got %d %s %q", tc.name, tc.method, tc.path, tc.query, got.Status, got.Code, got.Body)
				}
				if tc.name == "ListBucketsShowsOnlyLocatable" && strings.Contains(string(got.Body), "private") {
					t.Errorf("ListBuckets shows a bucket the key may neither list nor locate: %s", got.Body)
				}
			}
			if keys := s.Objects("data"); strings.Join(keys, ",") != "other/b.txt,team/keep.txt,team/new.txt" {
				t.Errorf("objects after the calls: %v", keys)
			}
		})
	}
}

func bodyFor(method, path string) []byte {
	if method == http.MethodPut && strings.Count(path, "/") > 1 {
		return []byte("body")
	}
	return nil
}

// docs/rustfs-wire.md §16.7: a service account of a user is allowed only what both the user and
// the session policy allow; without a session policy, what the user is.
func TestSessionPolicyAndParentBothApply(t *testing.T) {
	s := NewServer(WithUser("reader", "reader-secret", "s3:GetObject", "s3:ListBucket", actionCreateSvc))
	defer s.Close()
	s.PutObject("data", "a.txt", []byte("a"))
	rw := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject","s3:PutObject"],"Resource":["arn:aws:s3:::data/*"]}]}`
	reader := []string{"reader", "reader-secret"}
	want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(appAK, appSK, rw), reader...), 200, "", "")
	want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody("inherits", appSK, ""), reader...), 200, "", "")
	if rec, _ := s.ServiceAccount(appAK); rec.Parent != "reader" {
		t.Fatalf("parent %q, want the creating user", rec.Parent)
	}
	as := func(ak, method, path string) result {
		return do(t, s.URL(), req{method: method, path: path, ak: ak, sk: appSK, body: bodyFor(method, path)})
	}
	want(t, as(appAK, "GET", "/data/a.txt"), 200, "", "")
	want(t, as(appAK, "PUT", "/data/b.txt"), 403, "AccessDenied", "")      // the parent may not put
	want(t, as(appAK, "GET", "/data"), 403, "AccessDenied", "")            // the policy does not list
	want(t, as("inherits", "GET", "/data"), 200, "", "")                   // no session policy: the parent's access
	want(t, as("inherits", "PUT", "/data/b.txt"), 403, "AccessDenied", "") // and no more
}

// docs/rustfs-wire.md §16.7: ListBuckets without s3:ListAllMyBuckets asks each bucket with the
// conditions prefix "" and delimiter "/", so a listing statement conditioned
// on exactly those makes its bucket visible, and one on other values does not.
func TestListBucketsVisibilityConditions(t *testing.T) {
	s := NewServer()
	defer s.Close()
	for _, b := range []string{"seen", "unseen", "other"} {
		s.CreateBucket(b, false)
	}
	policy := `{"Version":"2012-10-17","Statement":[
 {"Effect":"Allow","Action":"s3:ListBucket","Resource":"arn:aws:s3:::seen","Condition":{"StringEquals":{"s3:delimiter":"/","s3:prefix":""}}},
 {"Effect":"Allow","Action":"s3:ListBucket","Resource":"arn:aws:s3:::unseen","Condition":{"StringEquals":{"s3:delimiter":","}}}]}`
	want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(appAK, appSK, policy)), 200, "", "")
	got := do(t, s.URL(), req{method: http.MethodGet, path: "/", ak: appAK, sk: appSK})
	want(t, got, 200, "", "")
	if body := string(got.Body); !strings.Contains(body, "<Name>seen</Name>") || strings.Contains(body, "unseen") || strings.Contains(body, "other") {
		t.Errorf("ListBuckets: %s", body)
	}
}
