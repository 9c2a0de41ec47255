package rustfstest

import (
	"net/http"
	"testing"
)

// IAM user route conformance (docs/rustfs-wire.md §20.2-§20.4). RustFS's
// user handlers were read in rc only; both modes answer alike.

const (
	userName   = "provider-rustfs-team-a-abcdefgh"
	userSecret = "user-secret-0123456789"
)

func userBody(secret, status string) []byte {
	return []byte(`{"secretKey":` + quote(secret) + `,"status":` + quote(status) + `}`)
}

func addUser(t *testing.T, s *Server, name, secret, status string, cred ...string) result {
	t.Helper()
	return svcAdmin(t, s, http.MethodPut, "add-user", "accessKey="+name, userBody(secret, status), cred...)
}

// docs/rustfs-wire.md §20.2-§20.4: add, read, re-add (replaces the secret and status, keeps the
// mapping), disable, remove, in both modes.
func TestUserLifecycle(t *testing.T) {
	for _, mode := range []Mode{ModeRC, ModeGA} {
		t.Run(mode.String(), func(t *testing.T) {
			s := NewServer(WithMode(mode))
			defer s.Close()
			want(t, addUser(t, s, userName, userSecret, "enabled"), http.StatusOK, "", "")
			info := jsonBody(t, svcAdmin(t, s, http.MethodGet, "user-info", "accessKey="+userName, nil))
			if info["status"] != "enabled" || info["policyName"] != nil || info["secretKey"] != nil || info["updatedAt"] == nil {
				t.Errorf("user-info of a new user: %v", mapKeys(info))
			}
			lists := svcAdmin(t, s, http.MethodGet, "list-service-accounts", "", nil, userName, userSecret)
			want(t, lists, http.StatusOK, "", "") // the user's own key works
			if err := s.SeedCannedPolicy("p", readPolicy); err != nil {
				t.Fatal(err)
			}
			want(t, svcAdmin(t, s, http.MethodPut, "set-user-or-group-policy", "policyName=p&userOrGroup="+userName+"&isGroup=false", nil),
				http.StatusOK, "", "")
			want(t, addUser(t, s, userName, "another-secret-key", "disabled"), http.StatusOK, "", "")
			if u, _ := s.User(userName); u.SecretKey != "another-secret-key" || u.Status != "disabled" || len(u.Policies) != 1 {
				t.Errorf("re-add must replace the secret key and status and keep the mapping: status %q, policies %v", u.Status, u.Policies)
			}
			want(t, svcAdmin(t, s, http.MethodGet, "list-service-accounts", "", nil, userName, "another-secret-key"),
				http.StatusBadRequest, "InvalidRequest", "ErrAccessKeyDisabled")
			want(t, svcAdmin(t, s, http.MethodPut, "set-user-status", "accessKey="+userName+"&status=enabled", nil), http.StatusOK, "", "")
			info = jsonBody(t, svcAdmin(t, s, http.MethodGet, "user-info", "accessKey="+userName, nil))
			if info["status"] != "enabled" || info["policyName"] != "p" {
				t.Errorf("user-info after enabling: %v", info)
			}
			want(t, svcAdmin(t, s, http.MethodDelete, "remove-user", "accessKey="+userName, nil), http.StatusOK, "", "")
			want(t, svcAdmin(t, s, http.MethodGet, "user-info", "accessKey="+userName, nil),
				http.StatusNotFound, "NoSuchResource", "user '"+userName+"' does not exist")
			want(t, svcAdmin(t, s, http.MethodDelete, "remove-user", "accessKey="+userName, nil),
				http.StatusInternalServerError, "InternalError", "failed to query temporary user state: user '"+userName+"' does not exist")
		})
	}
}

// docs/rustfs-wire.md §20.2: add-user's refusals, in RustFS's order.
func TestAddUserRefusals(t *testing.T) {
	s := NewServer(WithUser("reader", "reader-secret", "admin:GetUser"))
	defer s.Close()
	if err := s.SeedServiceAccount(ServiceAccountRecord{AccessKey: appAK, SecretKey: appSK, Policy: readPolicy}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		query  string
		body   []byte
		cred   []string
		status int
		code   string
		msg    string
	}{
		"NoQuery":       {"", userBody(userSecret, "enabled"), nil, 400, "InvalidArgument", "access key is empty"},
		"RepeatedKey":   {"accessKey=a1b&access-key=a2b", userBody(userSecret, "enabled"), nil, 400, "InvalidArgument", "failed to decode query"},
		"NotJSON":       {"accessKey=abc", []byte("secret"), nil, 400, "InvalidRequest", ""},
		"NoStatus":      {"accessKey=abc", []byte(`{"secretKey":"` + userSecret + `"}`), nil, 400, "InvalidRequest", "invalid JSON: missing field `status`"},
		"BadStatus":     {"accessKey=abc", userBody(userSecret, "on"), nil, 400, "InvalidRequest", ""},
		"EmptySecret":   {"accessKey=abc", userBody("", "enabled"), nil, 400, "InvalidArgument", "secret key is required"},
		"RootKey":       {"accessKey=" + DefaultAccessKey, userBody(userSecret, "enabled"), nil, 400, "InvalidArgument", "cannot create a user with the system access key"},
		"Spaces":        {"accessKey=a%20b", userBody(userSecret, "enabled"), nil, 400, "InvalidArgument", "access key contains spaces"},
		"NoPermission":  {"accessKey=abc", userBody(userSecret, "enabled"), []string{"reader", "reader-secret"}, 403, "AccessDenied", "Access Denied"},
		"ServiceCaller": {"accessKey=" + DefaultAccessKey + "x", userBody(userSecret, "enabled"), []string{appAK, appSK}, 403, "AccessDenied", ""},
		"ShortName":     {"accessKey=ab", userBody(userSecret, "enabled"), nil, 500, "InternalError", "failed to create user: invalid access key length"},
		"ReservedChars": {"accessKey=a%3Db", userBody(userSecret, "enabled"), nil, 500, "InternalError", "failed to create user: access key contains reserved characters =,"},
		"ShortSecret":   {"accessKey=abc", userBody("short", "enabled"), nil, 500, "InternalError", "failed to create user: invalid secret key length"},
		"ServiceKey":    {"accessKey=" + appAK, userBody(userSecret, "enabled"), nil, 501, "NotImplemented", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := svcAdmin(t, s, http.MethodPut, "add-user", tc.query, tc.body, tc.cred...)
			want(t, got, tc.status, tc.code, tc.msg)
		})
	}
	if got := len(s.usersNamed("abc", "ab", "a=b", "a b")); got != 0 {
		t.Errorf("%d refused users were stored", got)
	}
	got := do(t, s.URL(), req{method: http.MethodPut, path: "/minio/admin/v3/add-user", query: "accessKey=abc", body: userBody(userSecret, "enabled")})
	want(t, got, http.StatusBadRequest, "InvalidRequest", "")
}

// usersNamed returns which of the names are stored users.
func (e *Emulator) usersNamed(names ...string) []string {
	var out []string
	for _, n := range names {
		if _, ok := e.User(n); ok {
			out = append(out, n)
		}
	}
	return out
}

// docs/rustfs-wire.md §20.3, §20.4: user-info, set-user-status and remove-user refusals.
func TestUserRouteRefusals(t *testing.T) {
	s := NewServer(WithUser("ops", "ops-secret-key", "admin:GetUser", "admin:EnableUser"))
	defer s.Close()
	if err := s.SeedServiceAccount(ServiceAccountRecord{AccessKey: appAK, SecretKey: appSK, Policy: readPolicy}); err != nil {
		t.Fatal(err)
	}
	want(t, addUser(t, s, userName, userSecret, "enabled"), http.StatusOK, "", "")
	ops := []string{"ops", "ops-secret-key"}
	cases := []struct {
		name, method, path, query string
		cred                      []string
		status                    int
		code, msg                 string
	}{
		{"InfoEmpty", "GET", "user-info", "", nil, 400, "InvalidArgument", "access key is empty"},
		{"InfoServiceAccount", "GET", "user-info", "accessKey=" + appAK, nil, 500, "InternalError", "action not allowed"},
		{"InfoRoot", "GET", "user-info", "accessKey=" + DefaultAccessKey, nil, 404, "NoSuchResource", ""},
		{"InfoSelfWithoutPermission", "GET", "user-info", "accessKey=" + userName, []string{userName, userSecret}, 200, "", ""},
		{"InfoOtherWithoutPermission", "GET", "user-info", "accessKey=ops", []string{userName, userSecret}, 403, "AccessDenied", "Access Denied"},
		{"StatusSelf", "PUT", "set-user-status", "accessKey=ops&status=disabled", ops, 400, "InvalidArgument", "cannot change the status of the current user"},
		{"StatusBad", "PUT", "set-user-status", "accessKey=" + userName + "&status=off", ops, 400, "InvalidArgument", "invalid account status: off"},
		{"StatusUnknown", "PUT", "set-user-status", "accessKey=nobody&status=disabled", ops, 500, "InternalError", "failed to set user status: user 'nobody' does not exist"},
		{"StatusService", "PUT", "set-user-status", "accessKey=" + appAK + "&status=disabled", ops, 500, "InternalError", "failed to set user status: action not allowed"},
		{"StatusNoPermission", "PUT", "set-user-status", "accessKey=ops&status=disabled", []string{userName, userSecret}, 403, "AccessDenied", ""},
		{"RemoveNoPermission", "DELETE", "remove-user", "accessKey=nobody", ops, 403, "AccessDenied", "Access Denied"},
		{"RemoveRoot", "DELETE", "remove-user", "accessKey=" + DefaultAccessKey, nil, 400, "InvalidArgument", "cannot remove the current user"},
		{"RemoveService", "DELETE", "remove-user", "accessKey=" + appAK, nil, 400, "InvalidArgument", "cannot remove a service account"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want(t, svcAdmin(t, s, tc.method, tc.path, tc.query, nil, tc.cred...), tc.status, tc.code, tc.msg)
		})
	}
	if u, _ := s.User("ops"); u.Status != "enabled" {
		t.Error("a refused status change was applied")
	}
}
