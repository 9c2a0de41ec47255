package rustfstest

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
)

// uuidForm is RustFS's rendering of a deployment ID (docs/rustfs-wire.md §15.3).
var uuidForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// infoBody decodes an info answer into generic JSON, so the test checks the
// wire shape rather than the emulator's own structs.
func infoBody(t *testing.T, got result) map[string]any {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatalf("info body is not a JSON object: %v: %s", err, got.Body)
	}
	return body
}

// docs/rustfs-wire.md §15.1, §15.3: GET on both prefixes answers the ServerInfoResponse wrapper
// with info.deploymentID, in both modes, and the route is counted.
func TestInfoAnswersWrapperWithDeploymentID(t *testing.T) {
	for _, mode := range []Mode{ModeRC, ModeGA} {
		t.Run(mode.String(), func(t *testing.T) {
			p := newPair(t, mode)
			p.local.CreateBucket("data", false)
			id := p.local.DeploymentID()
			if !uuidForm.MatchString(id) {
				t.Fatalf("default deployment ID %q is not a lower-case v4 UUID", id)
			}
			for _, prefix := range []string{"/rustfs/admin/v3", "/minio/admin/v3"} {
				got := do(t, p.local.URL(), req{method: http.MethodGet, path: prefix + "/info"})
				want(t, got, http.StatusOK, "", "")
				body := infoBody(t, got)
				info, _ := body["info"].(map[string]any)
				if info["deploymentID"] != id {
					t.Errorf("%s: info.deploymentID = %v, want %q", prefix, info["deploymentID"], id)
				}
				if _, top := body["deploymentID"]; top {
					t.Errorf("%s: deploymentID at the top level; RustFS ≥ beta.9 nests it in info", prefix)
				}
				buckets, _ := info["buckets"].(map[string]any)
				if buckets["count"] != 1.0 || body["bitrotSelftest"] != "passed" || body["admin_discovery"] == nil {
					t.Errorf("%s: body lacks the RustFS fields: %s", prefix, got.Body)
				}
			}
			if n := p.local.Count(RouteServerInfo); n != 2 {
				t.Errorf("Count(RouteServerInfo) = %d, want 2", n)
			}
		})
	}
}

// docs/rustfs-wire.md §15.2: root and users allowed admin:ServerInfo (or admin:*) are served;
// users with only the tier permissions get 403 AccessDenied until granted it;
// bad keys fail authentication first. Only GET is routed.
func TestInfoPermission(t *testing.T) {
	p := newPair(t, ModeGA, WithUser("tiers", "tiers-sk", "admin:SetTier", "admin:ListTier"),
		WithUser("diag", "diag-sk", "admin:ServerInfo"), WithUser("admin", "admin-sk", "admin:*"))
	get := req{method: http.MethodGet, path: "/rustfs/admin/v3/info"}
	cases := map[string]struct {
		mod           func(r *req)
		status        int
		code, message string
	}{
		"RootIsAllowed":           {mod: func(*req) {}, status: 200},
		"ServerInfoUserIsAllowed": {mod: func(r *req) { r.ak, r.sk = "diag", "diag-sk" }, status: 200},
		"AdminWildcardIsAllowed":  {mod: func(r *req) { r.ak, r.sk = "admin", "admin-sk" }, status: 200},
		"TierUserIsAccessDenied":  {mod: func(r *req) { r.ak, r.sk = "tiers", "tiers-sk" }, status: 403, code: "AccessDenied", message: "Access Denied"},
		"UnknownKeyIsInvalidKey":  {mod: func(r *req) { r.ak, r.sk = "nobody", "x" }, status: 403, code: "InvalidAccessKeyId"},
		"WrongSecretIsMismatch":   {mod: func(r *req) { r.ak, r.sk = "diag", "wrong" }, status: 403, code: "SignatureDoesNotMatch"},
		"UnsignedIsAccessDenied":  {mod: func(r *req) { r.unsigned = true }, status: 403, code: "AccessDenied", message: "Signature is required"},
		"PostIsNotImplemented":    {mod: func(r *req) { r.method = http.MethodPost }, status: 501, code: "NotImplemented"},
		"SubPathIsNotImplemented": {mod: func(r *req) { r.path += "/x" }, status: 501, code: "NotImplemented"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := get
			tc.mod(&r)
			want(t, do(t, p.local.URL(), r), tc.status, tc.code, tc.message)
		})
	}
	p.local.SetUser("tiers", "tiers-sk", "admin:SetTier", "admin:ListTier", "admin:ServerInfo")
	want(t, do(t, p.local.URL(), req{method: http.MethodGet, path: get.path, ak: "tiers", sk: "tiers-sk"}), 200, "", "")
}

// docs/rustfs-wire.md §15.3, §15.4: WithDeploymentID sets the reported ID, so two emulators can be
// one RustFS; "" answers null as RustFS before 1.0.0-beta.5 did. Without the
// option every emulator has its own ID.
func TestInfoDeploymentIDOption(t *testing.T) {
	a, b := NewServer(WithDeploymentID("shared-id")), NewServer(WithDeploymentID("shared-id"))
	null, c, d := NewServer(WithDeploymentID("")), NewServer(), NewServer()
	for _, s := range []*Server{a, b, null, c, d} {
		t.Cleanup(s.Close)
	}
	idOf := func(s *Server) any {
		got := do(t, s.URL(), req{method: http.MethodGet, path: "/rustfs/admin/v3/info"})
		info, _ := infoBody(t, got)["info"].(map[string]any)
		v, present := info["deploymentID"]
		if !present {
			t.Fatalf("info has no deploymentID key: %s", got.Body)
		}
		return v
	}
	if idOf(a) != "shared-id" || idOf(b) != "shared-id" {
		t.Errorf("WithDeploymentID: want shared-id on both, got %v and %v", idOf(a), idOf(b))
	}
	if v := idOf(null); v != nil {
		t.Errorf(`WithDeploymentID(""): want null, got %v`, v)
	}
	if idOf(c) == idOf(d) || idOf(c) != c.DeploymentID() {
		t.Errorf("default IDs must differ per emulator and match DeploymentID(), got %v and %v", idOf(c), idOf(d))
	}
}
