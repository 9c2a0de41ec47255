package rustfstest

import (
	"net/http"
	"strings"
	"testing"
)

// A service account of a regular user is allowed what its parent's canned
// policies allow and its session policy allows (docs/rustfs-wire.md §16.7,
// §20.6), and only siblings under the same parent can see or delete it
// without permission (§16.8).

// boundA allows objects and listing on buckets starting "team-a-".
const boundA = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",` +
	`"Action":["s3:ListBucket","s3:GetObject","s3:PutObject"],"Resource":["arn:aws:s3:::team-a-*"]}]}`

// everything is a session policy that grants every S3 and admin action.
const everything = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:*"],"Resource":["arn:aws:s3:::*"]},` +
	`{"Effect":"Allow","Action":["admin:*"]}]}`

// newParent adds an enabled user mapped to a canned policy of its own name.
func newParent(t *testing.T, s *Server, name, policy string) {
	t.Helper()
	want(t, addUser(t, s, name, name+"-secret", "enabled"), http.StatusOK, "", "")
	want(t, svcAdmin(t, s, http.MethodPut, "add-canned-policy", "name="+name, []byte(policy)), http.StatusOK, "", "")
	want(t, svcAdmin(t, s, http.MethodPut, "set-user-or-group-policy", "policyName="+name+"&userOrGroup="+name+"&isGroup=false", nil),
		http.StatusOK, "", "")
}

// newChild adds a service account for parent, created by the root.
func newChild(t *testing.T, s *Server, parent, ak, policy string) {
	t.Helper()
	got := svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(ak, ak+"-secret", policy, `"targetUser":`+quote(parent)))
	want(t, got, http.StatusOK, "", "")
}

// boundCases are calls by a child of "parent-a" (bound by boundA) whose
// session policy grants everything.
var boundCases = []struct {
	name, method, path, query string
	body                      string
	status                    int
	code                      string
}{
	{"GetInBound", "GET", "/team-a-data/a.txt", "", "", 200, ""},
	{"PutInBound", "PUT", "/team-a-data/new.txt", "", "x", 200, ""},
	{"ListInBound", "GET", "/team-a-data", "list-type=2", "", 200, ""},
	{"DeleteNotInBound", "DELETE", "/team-a-data/a.txt", "", "", 403, "AccessDenied"},
	{"GetOtherNamespace", "GET", "/team-b-data/b.txt", "", "", 403, "AccessDenied"},
	{"CreateBucket", "PUT", "/team-a-new", "", "", 403, "AccessDenied"},
	{"PutVersioning", "PUT", "/team-a-data", "versioning", `<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>`, 403, "AccessDenied"},
	{"DeleteLifecycle", "DELETE", "/team-a-data", "lifecycle", "", 403, "AccessDenied"},
	{"ListBucketsShowsOnlyTheBound", "GET", "/", "", "", 200, ""},
	{"AddServiceAccount", "PUT", "/rustfs/admin/v3/add-service-account", "", addJSON, 403, "AccessDenied"},
	{"UpdateOwnPolicy", "POST", "/rustfs/admin/v3/update-service-account", "accessKey=child-a1", `{"newPolicy":` + everything + `}`, 403, "AccessDenied"},
	{"ParentInfo", "GET", "/rustfs/admin/v3/user-info", "accessKey=parent-a", "", 403, "AccessDenied"},
	{"RewriteParent", "PUT", "/rustfs/admin/v3/add-user", "accessKey=parent-a", `{"secretKey":"taken-over-1","status":"enabled"}`, 400, "InvalidArgument"},
	{"WidenParentPolicy", "PUT", "/rustfs/admin/v3/add-canned-policy", "name=parent-a", everything, 403, "AccessDenied"},
	{"ListTiers", "GET", "/rustfs/admin/v3/tier", "", "", 403, "AccessDenied"},
}

var addJSON = string(addBody("child-a9", "child-a9-secret", readPolicy, `"targetUser":"parent-a"`))

// docs/rustfs-wire.md §20.6: the parent's bounding policy caps a service account whose session
// policy grants everything, on S3 and admin routes alike.
func TestParentPolicyBoundsServiceAccount(t *testing.T) {
	for _, mode := range []Mode{ModeRC, ModeGA} {
		t.Run(mode.String(), func(t *testing.T) {
			s := NewServer(WithMode(mode))
			defer s.Close()
			s.PutObject("team-a-data", "a.txt", []byte("a"))
			s.PutObject("team-b-data", "b.txt", []byte("b"))
			newParent(t, s, "parent-a", boundA)
			newChild(t, s, "parent-a", "child-a1", everything)
			for _, tc := range boundCases {
				got := do(t, s.URL(), req{method: tc.method, path: tc.path, query: tc.query, body: []byte(tc.body),
					ak: "child-a1", sk: "child-a1-secret"})
				if got.Status != tc.status || got.Code != tc.code {
					t.Errorf("%s: want %d %q, got %d %q %q", tc.name, tc.status, tc.code, got.Status, got.Code, got.Message)
				}
			}
			all := do(t, s.URL(), req{method: http.MethodGet, path: "/", ak: "child-a1", sk: "child-a1-secret"})
			if !strings.Contains(string(all.Body), "<Name>team-a-data</Name>") || strings.Contains(string(all.Body), "team-b-data") {
				t.Errorf("ListBuckets must show the bound's buckets only:\n%s", all.Body)
			}
			if p, _ := s.CannedPolicy("parent-a"); strings.Contains(p, "admin:") {
				t.Errorf("the child widened its parent's policy: %s", p)
			}
			if _, ok := s.ServiceAccount("child-a9"); ok {
				t.Error("the child created a service account")
			}
		})
	}
}

// docs/rustfs-wire.md §16.7, §20.6: a session policy narrower than the parent still decides.
func TestSessionPolicyNarrowsParent(t *testing.T) {
	s := NewServer()
	defer s.Close()
	s.PutObject("team-a-data", "a.txt", []byte("a"))
	newParent(t, s, "parent-a", boundA)
	readOnly := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::team-a-data/*"]}]}`
	newChild(t, s, "parent-a", "child-a1", readOnly)
	as := func(method, path string) result {
		return do(t, s.URL(), req{method: method, path: path, body: []byte("x"), ak: "child-a1", sk: "child-a1-secret"})
	}
	want(t, as(http.MethodGet, "/team-a-data/a.txt"), http.StatusOK, "", "")
	want(t, as(http.MethodPut, "/team-a-data/b.txt"), http.StatusForbidden, "AccessDenied", "")
}

// docs/rustfs-wire.md §20.6: disabling the parent denies its accounts everything; removing it
// deletes them.
func TestParentDisabledOrRemoved(t *testing.T) {
	s := NewServer()
	defer s.Close()
	s.PutObject("team-a-data", "a.txt", []byte("a"))
	newParent(t, s, "parent-a", boundA)
	newChild(t, s, "parent-a", "child-a1", everything)
	get := func() result {
		return do(t, s.URL(), req{method: http.MethodGet, path: "/team-a-data/a.txt", ak: "child-a1", sk: "child-a1-secret"})
	}
	want(t, get(), http.StatusOK, "", "")
	want(t, svcAdmin(t, s, http.MethodPut, "set-user-status", "accessKey=parent-a&status=disabled", nil), http.StatusOK, "", "")
	want(t, get(), http.StatusForbidden, "AccessDenied", "Access Denied")
	want(t, svcAdmin(t, s, http.MethodGet, "list-service-accounts", "", nil, "parent-a", "parent-a-secret"),
		http.StatusBadRequest, "InvalidRequest", "ErrAccessKeyDisabled")
	want(t, svcAdmin(t, s, http.MethodPut, "set-user-status", "accessKey=parent-a&status=enabled", nil), http.StatusOK, "", "")
	want(t, get(), http.StatusOK, "", "")
	want(t, svcAdmin(t, s, http.MethodDelete, "remove-user", "accessKey=parent-a", nil), http.StatusOK, "", "")
	want(t, get(), http.StatusForbidden, "InvalidAccessKeyId", "")
	if _, ok := s.ServiceAccount("child-a1"); ok {
		t.Error("removing the parent left its service account")
	}
}

// docs/rustfs-wire.md §16.8, §20.7: a service account can list, read and delete its siblings
// (same parent) but not the accounts of another parent.
func TestSiblingsOnlyUnderOneParent(t *testing.T) {
	s := NewServer()
	defer s.Close()
	newParent(t, s, "parent-a", boundA)
	newParent(t, s, "parent-b", strings.ReplaceAll(boundA, "team-a-", "team-b-"))
	newChild(t, s, "parent-a", "child-a1", readPolicy)
	newChild(t, s, "parent-a", "child-a2", readPolicy)
	newChild(t, s, "parent-b", "child-b1", readPolicy)
	a1 := []string{"child-a1", "child-a1-secret"}
	list := jsonBody(t, svcAdmin(t, s, http.MethodGet, "list-service-accounts", "", nil, a1...))
	if got := accessKeys(list); strings.Join(got, ",") != "child-a1,child-a2" {
		t.Errorf("child-a1 lists %v; want its siblings only", got)
	}
	want(t, svcAdmin(t, s, http.MethodGet, "list-service-accounts", "user=parent-b", nil, a1...), http.StatusForbidden, "AccessDenied", "access denied")
	want(t, svcAdmin(t, s, http.MethodGet, "info-service-account", "accessKey=child-b1", nil, a1...), http.StatusForbidden, "AccessDenied", "access denied")
	want(t, svcAdmin(t, s, http.MethodDelete, "delete-service-account", "accessKey=child-b1", nil, a1...),
		http.StatusBadRequest, "InvalidRequest", "service account not exist")
	if _, ok := s.ServiceAccount("child-b1"); !ok {
		t.Fatal("child-a1 deleted another parent's account")
	}
	want(t, svcAdmin(t, s, http.MethodGet, "info-service-account", "accessKey=child-a2", nil, a1...), http.StatusOK, "", "")
	want(t, svcAdmin(t, s, http.MethodDelete, "delete-service-account", "accessKey=child-a2", nil, a1...), http.StatusOK, "", "")
	if _, ok := s.ServiceAccount("child-a2"); ok {
		t.Error("the sibling rule is a documented limit; the emulator must still model it")
	}
}

func accessKeys(list map[string]any) []string {
	var out []string
	accounts, _ := list["accounts"].([]any)
	for _, a := range accounts {
		m, _ := a.(map[string]any)
		ak, _ := m["accessKey"].(string)
		out = append(out, ak)
	}
	return out
}
