package rustfstest

import (
	"net/http"
	"strings"
	"testing"
)

// newSvcServer starts an emulator with a bucket "data" holding one object,
// a user "lister" allowed admin:ListServiceAccounts, a user "updater" allowed
// admin:UpdateServiceAccount, and the root-parented account appAK with
// readPolicy.
func newSvcServer(t *testing.T, opts ...Option) *Server {
	t.Helper()
	s := NewServer(append([]Option{WithUser("lister", "lister-secret", actionListSvc),
		WithUser("updater", "updater-secret", actionUpdateSvc)}, opts...)...)
	t.Cleanup(s.Close)
	s.PutObject("data", "a.txt", []byte("a"))
	want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(appAK, appSK, readPolicy)), 200, "", "")
	return s
}

// docs/rustfs-wire.md §16.3: update's checks and codes.
func TestServiceAccountUpdateRefusals(t *testing.T) {
	cases := map[string]struct {
		query         string
		body          string
		cred          []string
		status        int
		code, message string
	}{
		"NoQuery":          {body: `{}`, status: 400, code: "InvalidArgument", message: "access key is empty"},
		"OtherQueryKey":    {query: "user=x", body: `{}`, status: 400, code: "InvalidArgument", message: "get body failed1"},
		"RepeatedKey":      {query: "accessKey=a&access-key=b", body: `{}`, status: 400, code: "InvalidArgument", message: "get body failed1"},
		"NotJSON":          {query: "accessKey=" + appAK, body: `nope`, status: 400, code: "InvalidRequest"},
		"BadName":          {query: "accessKey=" + appAK, body: `{"newName":"-x"}`, status: 400, code: "InvalidRequest"},
		"NotAllowed":       {query: "accessKey=" + appAK, body: `{}`, cred: []string{"lister", "lister-secret"}, status: 403, code: "AccessDenied", message: "access denied"},
		"Unknown":          {query: "accessKey=nobody", body: `{}`, status: 404, code: "NoSuchResource", message: "service account 'nobody' does not exist"},
		"UnknownBadPolicy": {query: "accessKey=nobody", body: `{"newPolicy":{"Bad":1}}`, status: 404, code: "NoSuchResource"},
		"NotTheParent":     {query: "accessKey=" + appAK, body: `{}`, cred: []string{"updater", "updater-secret"}, status: 403, code: "AccessDenied", message: "access denied"},
		"BadPolicy":        {query: "accessKey=" + appAK, body: `{"newPolicy":{"Version":"2012-10-17","Statement":[{"Effect":"Maybe"}]}}`, status: 400, code: "InvalidArgument", message: errPolicyFormat.message},
		"ShortSecret":      {query: "accessKey=" + appAK, body: `{"newSecretKey":"1234567"}`, status: 400, code: "InvalidArgument", message: "invalid secret key length"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := newSvcServer(t)
			before, _ := s.ServiceAccount(appAK)
			got := svcAdmin(t, s, http.MethodPost, "update-service-account", tc.query, []byte(tc.body), tc.cred...)
			want(t, got, tc.status, tc.code, tc.message)
			if after, _ := s.ServiceAccount(appAK); after != before {
				t.Error("a refused update changed the account")
			}
		})
	}
}

// docs/rustfs-wire.md §16.3: what each newPolicy does. Only {} removes the session policy (and
// a root-parented account then has full access); a policy without Version,
// or with a Version and no statements, is ignored; a full one replaces it.
func TestServiceAccountUpdatePolicyHazards(t *testing.T) {
	writePolicy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:PutObject"],"Resource":["arn:aws:s3:::data/*"]}]}`
	cases := map[string]struct {
		newPolicy   string
		wantPolicy  string // "" means none
		putAllowed  bool
		listAllowed bool
	}{
		"EmptyRemovesIt":         {newPolicy: `{}`, putAllowed: true, listAllowed: true},
		"NoVersionIsIgnored":     {newPolicy: `{"Statement":[{"Effect":"Allow","Action":["s3:PutObject"],"Resource":["arn:aws:s3:::data/*"]}]}`, wantPolicy: "ListBucket", listAllowed: true},
		"NoStatementsIsIgnored":  {newPolicy: `{"Version":"2012-10-17","Statement":[]}`, wantPolicy: "ListBucket", listAllowed: true},
		"FullPolicyReplacesIt":   {newPolicy: writePolicy, wantPolicy: "PutObject", putAllowed: true},
		"PolicyAsStringReplaces": {newPolicy: quote(writePolicy), wantPolicy: "PutObject", putAllowed: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := newSvcServer(t)
			got := svcAdmin(t, s, http.MethodPost, "update-service-account", "accessKey="+appAK, []byte(`{"newPolicy":`+tc.newPolicy+`}`))
			want(t, got, http.StatusNoContent, "", "")
			rec, _ := s.ServiceAccount(appAK)
			if tc.wantPolicy == "" && rec.Policy != "" || !strings.Contains(rec.Policy, tc.wantPolicy) {
				t.Errorf("stored policy %q, want one with %q", rec.Policy, tc.wantPolicy)
			}
			s.CreateBucket("other", false)
			other := do(t, s.URL(), req{method: http.MethodPut, path: "/other/x", body: []byte("x"), ak: appAK, sk: appSK})
			put := do(t, s.URL(), req{method: http.MethodPut, path: "/data/x", body: []byte("x"), ak: appAK, sk: appSK})
			list := do(t, s.URL(), req{method: http.MethodGet, path: "/data", ak: appAK, sk: appSK})
			if (put.Status == 200) != tc.putAllowed || (list.Status == 200) != tc.listAllowed {
				t.Errorf("put %d (allowed %t), list %d (allowed %t)", put.Status, tc.putAllowed, list.Status, tc.listAllowed)
			}
			if full := tc.wantPolicy == ""; (other.Status == 200) != full {
				t.Errorf("put into a bucket no policy names: %d; want allowed only with no session policy", other.Status)
			}
		})
	}
}

// docs/rustfs-wire.md §16.2 step 5: at add, {} is no policy (full access for a root-parented
// account), a policy with only a Version is an explicit deny-all, and a
// policy without Version gets one.
func TestServiceAccountAddPolicyForms(t *testing.T) {
	cases := map[string]struct {
		policy      string
		stored      string
		listAllowed bool
	}{
		"EmptyIsNone":       {policy: `{}`, stored: "", listAllowed: true},
		"VersionOnlyDenies": {policy: `{"Version":"2012-10-17"}`, stored: emptyExplicitPolicy},
		"NoVersionGetsOne": {policy: `{"Statement":[{"Effect":"Allow","Action":"s3:ListBucket","Resource":"arn:aws:s3:::data"}]}`,
			stored: `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:ListBucket"],"Resource":["arn:aws:s3:::data"]}]}`, listAllowed: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewServer()
			defer s.Close()
			s.CreateBucket("data", false)
			want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(appAK, appSK, tc.policy)), 200, "", "")
			if rec, _ := s.ServiceAccount(appAK); rec.Policy != tc.stored {
				t.Errorf("stored policy:\n got %s\nwant %s", rec.Policy, tc.stored)
			}
			list := do(t, s.URL(), req{method: http.MethodGet, path: "/data", ak: appAK, sk: appSK})
			if (list.Status == 200) != tc.listAllowed {
				t.Errorf("list: %d %s", list.Status, list.Code)
			}
		})
	}
}

// docs/rustfs-wire.md §16.1, §16.4-§16.6: who may read, list and delete. Info reports an unknown
// account before checking permission; delete answers "not exist" both for
// an unknown account and for one the caller may not delete. A root-parented
// service account counts as a sibling of every other root-parented one, so
// it may read, list and delete them without any admin permission.
func TestServiceAccountReadAndDeletePermissions(t *testing.T) {
	s := newSvcServer(t)
	const sibAK, sibSK = "team-b-app", "team-b-app-secret-0123"
	want(t, svcAdmin(t, s, http.MethodPut, "add-service-account", "", addBody(sibAK, sibSK, readPolicy)), 200, "", "")
	lister := []string{"lister", "lister-secret"}
	updater := []string{"updater", "updater-secret"}
	sibling := []string{sibAK, sibSK}
	info := func(cred []string, ak string) result {
		return svcAdmin(t, s, http.MethodGet, "info-service-account", "accessKey="+ak, nil, cred...)
	}
	want(t, info(lister, appAK), 200, "", "")
	want(t, info(updater, appAK), 403, "AccessDenied", "access denied")
	want(t, info(updater, "nobody"), 404, "NoSuchResource", "")
	want(t, info(sibling, appAK), 200, "", "")

	list := svcAdmin(t, s, http.MethodGet, "list-service-accounts", "", nil, sibling...)
	want(t, list, 200, "", "")
	if !strings.Contains(string(list.Body), `"accessKey":"`+appAK+`"`) || !strings.Contains(string(list.Body), `"expiration":null`) {
		t.Errorf("a service account's own list should show its siblings with null expiration: %s", list.Body)
	}
	want(t, svcAdmin(t, s, http.MethodGet, "list-service-accounts", "user="+DefaultAccessKey, nil, updater...), 403, "AccessDenied", "access denied")
	want(t, svcAdmin(t, s, http.MethodGet, "list-service-accounts", "user="+DefaultAccessKey, nil, lister...), 200, "", "")

	del := func(cred []string, ak string) result {
		return svcAdmin(t, s, http.MethodDelete, "delete-service-account", "accessKey="+ak, nil, cred...)
	}
	want(t, del(updater, appAK), 400, "InvalidRequest", "service account not exist")
	want(t, del(nil, ""), 400, "InvalidArgument", "access key is empty")
	want(t, del(sibling, appAK), 200, "", "")
	if _, ok := s.ServiceAccount(appAK); ok {
		t.Error("a sibling's delete did not delete")
	}
	got := do(t, s.URL(), req{method: http.MethodDelete, path: "/minio/admin/v3/delete-service-accounts", query: "access-key=" + sibAK})
	want(t, got, http.StatusNoContent, "", "")
}

// docs/rustfs-wire.md §16.3, §16.6, §16.7: a deleted account's key is unknown at once; after a
// secret-key update the old key no longer signs; an account turned off is
// refused after its signature is checked; any status but on/enabled is off.
func TestServiceAccountCredentialsFollowTheAccount(t *testing.T) {
	s := newSvcServer(t)
	get := func(sk string) result {
		return do(t, s.URL(), req{method: http.MethodGet, path: "/data/a.txt", ak: appAK, sk: sk})
	}
	want(t, get(appSK), 200, "", "")
	update := func(body string) {
		want(t, svcAdmin(t, s, http.MethodPost, "update-service-account", "accessKey="+appAK, []byte(body)), 204, "", "")
	}
	update(`{"newSecretKey":"rotated-secret-key"}`)
	want(t, get(appSK), 403, "SignatureDoesNotMatch", "")
	want(t, get("rotated-secret-key"), 200, "", "")
	update(`{"newStatus":"paused"}`)
	want(t, get("rotated-secret-key"), 400, "InvalidRequest", "ErrAccessKeyDisabled")
	want(t, get("wrong-secret-key"), 403, "SignatureDoesNotMatch", "")
	update(`{"newStatus":"enabled"}`)
	want(t, get("rotated-secret-key"), 200, "", "")
	want(t, svcAdmin(t, s, http.MethodDelete, "delete-service-account", "accessKey="+appAK, nil), 200, "", "")
	want(t, get("rotated-secret-key"), 403, "InvalidAccessKeyId", "")
}
