package rustfstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Service-account route conformance (docs/rustfs-wire.md §16). RustFS's
// service-account handlers were read in rc only; both modes answer alike.

const (
	appAK = "team-a-app"
	appSK = "team-a-app-secret-0123456789"
)

// readPolicy is a session policy for bucket "data": list and read.
const readPolicy = `{"Version":"2012-10-17","Statement":[` +
	`{"Effect":"Allow","Action":["s3:ListBucket"],"Resource":["arn:aws:s3:::data"]},` +
	`{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::data/*"}]}`

// addBody is an add body with both keys and a policy ("" leaves it out).
func addBody(ak, sk, policy string, extra ...string) []byte {
	parts := []string{`"accessKey":` + quote(ak), `"secretKey":` + quote(sk)}
	if policy != "" {
		parts = append(parts, `"policy":`+policy)
	}
	return []byte("{" + strings.Join(append(parts, extra...), ",") + "}")
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func svcAdmin(t *testing.T, s *Server, method, path, query string, body []byte, cred ...string) result {
	t.Helper()
	r := req{method: method, path: "/rustfs/admin/v3/" + path, query: query, body: body}
	if len(cred) == 2 {
		r.ak, r.sk = cred[0], cred[1]
	}
	return do(t, s.URL(), r)
}

func jsonBody(t *testing.T, got result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(got.Body, &m); err != nil {
		t.Fatalf("answer is not a JSON object: %v: %s", err, got.Body)
	}
	return m
}

// docs/rustfs-wire.md §16.2-§16.6: the whole life of one account, in both modes.
func TestServiceAccountLifecycle(t *testing.T) {
	for _, mode := range []Mode{ModeRC, ModeGA} {
		t.Run(mode.String(), func(t *testing.T) {
			s := NewServer(WithMode(mode))
			defer s.Close()
			got := svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(appAK, appSK, readPolicy, `"name":"teamA"`))
			want(t, got, http.StatusOK, "", "")
			creds, _ := jsonBody(t, got)["credentials"].(map[string]any)
			if creds["accessKey"] != appAK || creds["secretKey"] != appSK || creds["expiration"] != nil {
				t.Errorf("add answer: want the two keys and no expiration, got keys %v", mapKeys(creds))
			}
			info := jsonBody(t, svcAdmin(t, s, http.MethodGet, "info-service-account", "accessKey="+appAK, nil))
			if info["parentUser"] != DefaultAccessKey || info["accountStatus"] != "on" || info["impliedPolicy"] != false || info["name"] != "teamA" {
				t.Errorf("info: %v", info)
			}
			policy, _ := info["policy"].(string)
			if !strings.HasPrefix(policy, "{\n  \"Version\": \"2012-10-17\",\n  \"Statement\": [") ||
				!strings.Contains(policy, "\"Action\": [\n        \"s3:GetObject\"\n      ],") {
				t.Errorf("info policy is not the pretty, array-normalised policy:\n%s", policy)
			}
			if _, ok := info["expiration"]; ok {
				t.Error("info: expiration present for an account without one")
			}
			got = svcAdmin(t, s, http.MethodPost, "update-service-account", "accessKey="+appAK, []byte(`{"newSecretKey":"a-new-secret-key"}`))
			want(t, got, http.StatusNoContent, "", "")
			if len(got.Body) != 0 {
				t.Errorf("update answered a body: %s", got.Body)
			}
			want(t, svcAdmin(t, s, http.MethodDelete, "delete-service-account", "accessKey="+appAK, nil), http.StatusOK, "", "")
			want(t, svcAdmin(t, s, http.MethodGet, "info-service-account", "accessKey="+appAK, nil),
				http.StatusNotFound, "NoSuchResource", "service account '"+appAK+"' does not exist")
			want(t, svcAdmin(t, s, http.MethodDelete, "delete-service-account", "accessKey="+appAK, nil),
				http.StatusBadRequest, "InvalidRequest", "service account not exist")
			if n := s.Writes(); n != 4 {
				t.Errorf("Writes() = %d, want 4 (add, update, two deletes)", n)
			}
		})
	}
}

func mapKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// docs/rustfs-wire.md §16.2: the add checks, in RustFS's order and with its codes.
func TestServiceAccountAddRefusals(t *testing.T) {
	long := strings.Repeat("x", 5000)
	big := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::` + long + `"]}]}`
	cases := map[string]struct {
		body          []byte
		cred          []string
		status        int
		code, message string
	}{
		"NotJSON":            {body: []byte(`[`), status: 400, code: "InvalidRequest"},
		"NullAccessKey":      {body: []byte(`{"accessKey":null}`), status: 400, code: "InvalidRequest"},
		"SpaceInAccessKey":   {body: addBody("a b", appSK, readPolicy), status: 400, code: "InvalidRequest", message: "access key has spaces"},
		"NameTooLong":        {body: addBody(appAK, appSK, readPolicy, `"name":"`+strings.Repeat("a", 33)+`"`), status: 400, code: "InvalidRequest", message: "name must not be longer than 32 characters"},
		"NameStartsDigit":    {body: addBody(appAK, appSK, readPolicy, `"name":"1a"`), status: 400, code: "InvalidRequest"},
		"LongDescription":    {body: addBody(appAK, appSK, readPolicy, `"description":"`+strings.Repeat("d", 257)+`"`), status: 400, code: "InvalidRequest", message: "description must be at most 256 bytes long"},
		"PastExpiration":     {body: addBody(appAK, appSK, readPolicy, `"expiration":"2001-01-01T00:00:00Z"`), status: 400, code: "InvalidRequest", message: "the expiration time should be in the future"},
		"UnknownAction":      {body: addBody(appAK, appSK, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:Get*"],"Resource":["arn:aws:s3:::d/*"]}]}`), status: 400, code: "InvalidArgument", message: errPolicyFormat.message},
		"UnknownPolicyKey":   {body: addBody(appAK, appSK, `{"Version":"2012-10-17","Statement":[],"Extra":1}`), status: 400, code: "InvalidArgument", message: errPolicyFormat.message},
		"BadVersion":         {body: addBody(appAK, appSK, `{"Version":"2008-10-17","Statement":[]}`), status: 400, code: "InvalidArgument", message: "invalid service account policy: invalid Version '2008-10-17'"},
		"NoResource":         {body: addBody(appAK, appSK, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"]}]}`), status: 400, code: "InvalidArgument", message: "invalid service account policy: Resource is empty"},
		"MixedFamilies":      {body: addBody(appAK, appSK, `{"Statement":[{"Effect":"Allow","Action":["s3:GetObject","admin:ServerInfo"],"Resource":"arn:aws:s3:::*"}]}`), status: 400, code: "InvalidArgument", message: "invalid service account policy: 'Action' contains mixed action families in the same statement"},
		"SystemAccessKey":    {body: addBody(DefaultAccessKey, appSK, readPolicy), status: 400, code: "InvalidArgument", message: "can't create user with system access key"},
		"NoSecretKey":        {body: addBody(appAK, "", readPolicy), status: 500, code: "InternalError", message: "create service account failed, e: NoSecretKeyWithAccessKey"},
		"ShortAccessKey":     {body: addBody("ab", appSK, readPolicy), status: 400, code: "InvalidArgument", message: "invalid access key length"},
		"LongSecretKey":      {body: addBody(appAK, strings.Repeat("s", 41), readPolicy), status: 400, code: "InvalidArgument", message: "invalid secret key length"},
		"TooLargePolicy":     {body: addBody(appAK, appSK, big), status: 500, code: "InternalError", message: "create service account failed, e: PolicyTooLarge"},
		"UnknownTarget":      {body: addBody(appAK, appSK, readPolicy, `"targetUser":"nobody"`), status: 400, code: "InvalidRequest", message: "target user not exist"},
		"UserNotAllowed":     {body: addBody(appAK, appSK, readPolicy), cred: []string{"reader", "reader-secret"}, status: 403, code: "AccessDenied", message: "access denied"},
		"UserTargetsRoot":    {body: addBody(appAK, appSK, readPolicy, `"targetUser":"`+DefaultAccessKey+`"`), cred: []string{"creator", "creator-secret"}, status: 403, code: "AccessDenied", message: "service account parent is outside requester scope"},
		"AccessKeyIsAUser":   {body: addBody("reader", appSK, readPolicy), status: 400, code: "InvalidArgument", message: "access key is already in use"},
		"ParentIsAccessKey":  {body: addBody("creator", appSK, readPolicy), cred: []string{"creator", "creator-secret"}, status: 400, code: "InvalidArgument", message: "access key is already in use"},
		"PolicyIsBadString":  {body: addBody(appAK, appSK, `"not a policy"`), status: 400, code: "InvalidArgument", message: errPolicyFormat.message},
		"UnmodelledOperator": {body: addBody(appAK, appSK, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::d/*","Condition":{"IpAddress":{"aws:SourceIp":"10.0.0.0/8"}}}]}`), status: 501, code: "NotImplemented"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewServer(WithUser("reader", "reader-secret", "s3:*"),
				WithUser("creator", "creator-secret", actionCreateSvc, "s3:*"))
			defer s.Close()
			got := svcAdmin(t, s, http.MethodPut, "add-service-account", "", tc.body, tc.cred...)
			want(t, got, tc.status, tc.code, tc.message)
			if n := len(s.ServiceAccounts()); n != 0 {
				t.Errorf("a refused add stored %d accounts", n)
			}
		})
	}
}

// docs/rustfs-wire.md §16.2: a JSON string holding a policy is read as that policy; generated
// keys have RustFS's form; an existing access key is refused; /minio bodies
// are encrypted, which plain JSON fails.
func TestServiceAccountAddForms(t *testing.T) {
	s := NewServer()
	defer s.Close()
	want(t, svcAdmin(t, s, http.MethodPut, "add-service-accounts", "", addBody(appAK, appSK, quote(readPolicy))), 200, "", "")
	if rec, _ := s.ServiceAccount(appAK); !strings.Contains(rec.Policy, `"s3:ListBucket"`) {
		t.Errorf("a policy sent as a JSON string was not read: %q", rec.Policy)
	}
	want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(appAK, appSK, readPolicy)),
		400, "InvalidArgument", "access key is already in use")
	got := svcAdmin(t, s, http.MethodPut, "add-service-account", "", []byte(`{"policy":`+readPolicy+`}`))
	want(t, got, 200, "", "")
	creds, _ := jsonBody(t, got)["credentials"].(map[string]any)
	ak, _ := creds["accessKey"].(string)
	sk, _ := creds["secretKey"].(string)
	if len(ak) != 20 || strings.Trim(ak, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" || len(sk) != 40 {
		t.Errorf("generated keys: access key %q, secret key of %d bytes", ak, len(sk))
	}
	got = do(t, s.URL(), req{method: http.MethodPut, path: "/minio/admin/v3/add-service-account", body: addBody("other", appSK, readPolicy)})
	want(t, got, 400, "InvalidRequest", "")
	if !strings.HasPrefix(got.Message, "failed to decrypt MinIO admin payload") {
		t.Errorf("/minio add: %q", got.Message)
	}
}
