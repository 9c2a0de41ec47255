package rustfstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Canned-policy and mapping route conformance (docs/rustfs-wire.md §20.5).

// docs/rustfs-wire.md §20.5: store, read back with sorted keys and array values, replace, map,
// refuse removal while mapped, unmap, remove.
func TestCannedPolicyLifecycle(t *testing.T) {
	s := NewServer()
	defer s.Close()
	want(t, svcAdmin(t, s, http.MethodPut, "add-canned-policy", "name=bound", []byte(readPolicy)), http.StatusOK, "", "")
	got := svcAdmin(t, s, http.MethodGet, "info-canned-policy", "name=bound", nil)
	want(t, got, http.StatusOK, "", "")
	if !strings.HasPrefix(string(got.Body), `{"policy_name":"bound","policy":{"Statement":[{"Action":["s3:ListBucket"],"Effect":"Allow","Resource":["arn:aws:s3:::data"]},`) ||
		!strings.Contains(string(got.Body), `"Version":"2012-10-17"},"create_date":"`) {
		t.Errorf("info-canned-policy is not PolicyInfo with a serde_json::Value policy:\n%s", got.Body)
	}
	wider := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"arn:aws:s3:::*"}]}`
	want(t, svcAdmin(t, s, http.MethodPut, "add-canned-policy", "name=bound", []byte(wider)), http.StatusOK, "", "")
	if p, _ := s.CannedPolicy("bound"); !strings.Contains(p, `"s3:*"`) {
		t.Errorf("add-canned-policy did not replace the policy: %s", p)
	}
	want(t, addUser(t, s, userName, userSecret, "enabled"), http.StatusOK, "", "")
	mapQuery := "policyName=bound&userOrGroup=" + userName + "&isGroup=false"
	want(t, svcAdmin(t, s, http.MethodPut, "set-user-or-group-policy", mapQuery, nil), http.StatusOK, "", "")
	want(t, svcAdmin(t, s, http.MethodDelete, "remove-canned-policy", "name=bound", nil), http.StatusInternalServerError, "InternalError", "policy in use")
	want(t, svcAdmin(t, s, http.MethodPut, "set-policy", "userOrGroup="+userName+"&isGroup=false", nil), http.StatusOK, "", "")
	if u, _ := s.User(userName); len(u.Policies) != 0 {
		t.Errorf("an empty policyName must remove the mapping, got %v", u.Policies)
	}
	want(t, svcAdmin(t, s, http.MethodDelete, "remove-canned-policy", "name=bound", nil), http.StatusOK, "", "")
	want(t, svcAdmin(t, s, http.MethodGet, "info-canned-policy", "name=bound", nil), http.StatusInternalServerError, "InternalError", "policy does not exist")
	want(t, svcAdmin(t, s, http.MethodDelete, "remove-canned-policy", "name=bound", nil), http.StatusOK, "", "")
}

// docs/rustfs-wire.md §20.5: refusals of the canned-policy and mapping routes.
func TestCannedPolicyRefusals(t *testing.T) {
	s := NewServer(WithUser("reader", "reader-secret", "admin:GetUser"))
	defer s.Close()
	want(t, addUser(t, s, userName, userSecret, "enabled"), http.StatusOK, "", "")
	if err := s.SeedCannedPolicy("p", readPolicy); err != nil {
		t.Fatal(err)
	}
	noVersion := `{"Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::data/*"}]}`
	cases := []struct {
		name, method, path, query, body string
		cred                            []string
		status                          int
		code, msg                       string
	}{
		{"AddNoPermission", "PUT", "add-canned-policy", "name=x", readPolicy, []string{"reader", "reader-secret"}, 403, "AccessDenied", "Access Denied"},
		{"AddNoQuery", "PUT", "add-canned-policy", "", readPolicy, nil, 400, "InvalidArgument", "policy name is required"},
		{"AddQueryWithoutName", "PUT", "add-canned-policy", "x=1", readPolicy, nil, 400, "InvalidArgument", "failed to decode query"},
		{"AddSpaces", "PUT", "add-canned-policy", "name=a%20b", readPolicy, nil, 400, "InvalidArgument", "policy name contains spaces"},
		{"AddNotJSON", "PUT", "add-canned-policy", "name=x", "{", nil, 400, "InvalidRequest", ""},
		{"AddUnknownAction", "PUT", "add-canned-policy", "name=x", strings.Replace(readPolicy, "s3:ListBucket", "s3:List*", 1), nil, 400, "InvalidRequest", ""},
		{"AddNoVersion", "PUT", "add-canned-policy", "name=x", noVersion, nil, 400, "InvalidArgument", "policy version is required"},
		{"AddNoStatements", "PUT", "add-canned-policy", "name=x", `{"Version":"2012-10-17"}`, nil, 500, "InternalError", "invalid arguments specified"},
		{"InfoTwoNames", "GET", "info-canned-policy", "name=p,q", "", nil, 400, "InvalidArgument", "too many policies"},
		{"InfoNoPermission", "GET", "info-canned-policy", "name=p", "", []string{"reader", "reader-secret"}, 403, "AccessDenied", ""},
		{"RemoveBuiltin", "DELETE", "remove-canned-policy", "name=readwrite", "", nil, 500, "InternalError", "system policy can not be deleted"},
		{"MapNoQuery", "PUT", "set-user-or-group-policy", "", "", nil, 400, "InvalidArgument", "user or group is required"},
		{"MapNoIsGroup", "PUT", "set-user-or-group-policy", "policyName=p&userOrGroup=" + userName, "", nil, 400, "InvalidArgument", "failed to decode query"},
		{"MapRoot", "PUT", "set-user-or-group-policy", "policyName=p&userOrGroup=" + DefaultAccessKey + "&isGroup=false", "", nil, 400, "InvalidArgument", "cannot set a policy for the system user"},
		{"MapUnknownUser", "PUT", "set-user-or-group-policy", "policyName=p&userOrGroup=nobody&isGroup=false", "", nil, 400, "InvalidArgument", "user not found"},
		{"MapUnknownPolicy", "PUT", "set-user-or-group-policy", "policyName=p,nope&userOrGroup=" + userName + "&isGroup=false", "", nil, 500, "InternalError", "policy does not exist"},
		{"MapGroup", "PUT", "set-user-or-group-policy", "policyName=p&userOrGroup=g&isGroup=true", "", nil, 501, "NotImplemented", ""},
		{"MapNoPermission", "PUT", "set-user-or-group-policy", "policyName=p&userOrGroup=" + userName + "&isGroup=false", "", []string{"reader", "reader-secret"}, 403, "AccessDenied", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want(t, svcAdmin(t, s, tc.method, tc.path, tc.query, []byte(tc.body), tc.cred...), tc.status, tc.code, tc.msg)
		})
	}
	if _, ok := s.CannedPolicy("x"); ok {
		t.Error("a refused policy was stored")
	}
	if u, _ := s.User(userName); len(u.Policies) != 0 {
		t.Errorf("a refused mapping was stored: %v", u.Policies)
	}
}

// The info answer's policy is a JSON object a client can read back.
func TestCannedPolicyInfoRoundTrip(t *testing.T) {
	s := NewServer()
	defer s.Close()
	if err := s.SeedCannedPolicy("p", readPolicy); err != nil {
		t.Fatal(err)
	}
	var info struct {
		Name   string          `json:"policy_name"`
		Policy json.RawMessage `json:"policy"`
	}
	if err := json.Unmarshal(svcAdmin(t, s, http.MethodGet, "info-canned-policy", "name=p", nil).Body, &info); err != nil {
		t.Fatal(err)
	}
	stored, _ := s.CannedPolicy("p")
	again, err := RenderSessionPolicy(info.Policy, false)
	if err != nil || info.Name != "p" {
		t.Fatalf("name %q, reparse: %v", info.Name, err)
	}
	var a, b any
	_ = json.Unmarshal([]byte(stored), &a)
	_ = json.Unmarshal([]byte(again), &b)
	if ja, _ := json.Marshal(a); string(ja) != mustJSON(t, b) {
		t.Errorf("the policy read back differs:\n%s\n%s", stored, again)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
