package rustfstest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The gcs tier type over HTTP in both releases (docs/rustfs-wire.md §2, §5):
// RustFS reads its creds with Google's authorized-user builder, which a
// service-account key does not satisfy; rc rotates it through the edit's
// accessKey, GA through base64 creds.

func gcsBody(p pair, name, creds string) []byte {
	c, _ := json.Marshal(creds)
	return []byte(`{"type":"gcs","gcs":{"name":"` + name + `","endpoint":"` + p.remote.TierURL() + `","creds":` + string(c) +
		`,"bucket":"cold","prefix":"g/","region":""}}`)
}

// serviceAccountKey is a Google service-account key file.
func serviceAccountKey(email string) string {
	b, _ := json.Marshal(map[string]string{"type": "service_account", "project_id": "p", "client_email": email, // strings
		"client_id": "1234", "private_key": "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n"})
	return string(b)
}

// gaGCSCreds is the only shape both GA's validator ("type" must be
// "service_account") and the backend (authorized-user fields) accept.
func gaGCSCreds(clientID, clientSecret string) string {
	return strings.Replace(GCSAuthorizedUser(clientID, clientSecret), `"authorized_user"`, `"service_account"`, 1)
}

// rc adds a gcs tier with authorized-user JSON and works on the remote's
// storage with it; a service-account key is refused before any remote
// call, with the builder's message.
func TestGCSTierRCNeedsAuthorizedUserJSON(t *testing.T) {
	p := newPair(t, ModeRC)
	got := p.add(t, gcsBody(p, "SA", serviceAccountKey("sa@example.iam")), "")
	want(t, got, 500, "TierAddFailed", "tier add failed. "+invalidConfigMsg+": Invalid credentials JSON: missing field `client_secret`")
	if n := len(p.remote.Requests()); n != 0 {
		t.Errorf("a refused service-account key made %d remote calls", n)
	}
	want(t, p.add(t, gcsBody(p, "G", GCSAuthorizedUser(remoteAK, "wrong")), ""), 500, "TierAddFailed",
		"tier add failed. Tier Perm Err.remote tier request failed with status 401 Unauthorized: invalid_grant")
	p.remote.ResetCounters()
	want(t, p.add(t, gcsBody(p, "G", GCSAuthorizedUser(remoteAK, remoteSK)), ""), 200, "", "")
	if p.remote.Count(RouteGCSList) != 1 {
		t.Errorf("gcs operations on the remote: %v", p.remote.Counts())
	}
	if inner := listed(t, p, "gcs"); strField(inner, "creds") != "REDACTED" || inner["accessKey"] != nil {
		t.Errorf("gcs list entry: %v", inner)
	}
	want(t, p.admin(t, http.MethodGet, "/tier/G", "", nil), 200, "", "")
}

// rc reads a gcs edit's accessKey as the new credentials JSON and needs a
// non-empty secretKey; the creds field of GA is an unknown key there, so a
// GA-shaped edit is TierMissingCredentials. The new JSON is built like an
// add's, so a service-account key is refused and the old JSON stays.
func TestGCSEditRC(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.add(t, gcsBody(p, "G", GCSAuthorizedUser(remoteAK, remoteSK)), ""), 200, "", "")
	edit := func(accessKey, secretKey string) result {
		body, _ := json.Marshal(map[string]string{"accessKey": accessKey, "secretKey": secretKey})
		return p.admin(t, http.MethodPost, "/tier/G", "", body)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(GCSAuthorizedUser("other", "k")))
	want(t, p.admin(t, http.MethodPost, "/tier/G", "", []byte(`{"creds":"`+b64+`"}`)), 500, "TierMissingCredentials", "tier credentials are required")
	want(t, edit(GCSAuthorizedUser("other", "k"), ""), 500, "TierMissingCredentials", "tier credentials are required")
	want(t, edit(serviceAccountKey("sa@example.iam"), "-"), 500, "TierEditFailed",
		"tier edit failed. "+invalidConfigMsg+": Invalid credentials JSON: missing field `client_secret`")
	want(t, edit(GCSAuthorizedUser("other", "k"), "-"), 200, "", "")
	if rec, _ := p.local.Tier("G"); rec.Creds != GCSAuthorizedUser("other", "k") {
		t.Error("rc gcs edit did not store the access key as creds")
	}
}

// GA refuses every gcs add: its validator wants "type":"service_account",
// its backend the authorized-user fields, and its backend cannot find the
// probe object. Only with the candidate probe (a later release) does the
// one shape both accept get through, and a GA edit takes base64 creds.
func TestGCSTierGA(t *testing.T) {
	p := newPair(t, ModeGA)
	want(t, p.add(t, gcsBody(p, "G", GCSAuthorizedUser(remoteAK, remoteSK)), ""), 400, "InvalidArgument",
		"GCS credentials must describe a service account")
	want(t, p.add(t, gcsBody(p, "G", serviceAccountKey("sa@example.iam")), ""), 400, "InvalidArgument",
		invalidConfigMsg+": Invalid credentials JSON: missing field `client_secret`")
	want(t, p.add(t, gcsBody(p, "G", gaGCSCreds(remoteAK, remoteSK)), ""), 500, "TierAddFailed", "tier add failed. "+uncertainMsg)

	p = newPair(t, ModeGA, WithCandidateProbe("gcs"))
	p.remote.SetUser("client2", "secret2", "s3:*")
	want(t, p.add(t, gcsBody(p, "G", gaGCSCreds(remoteAK, remoteSK)), ""), 200, "", "")
	if n := p.remote.VersionCount("cold"); n != 0 {
		t.Errorf("the GCS probe left %d generations", n)
	}
	edit := func(creds string) result {
		b64 := base64.StdEncoding.EncodeToString([]byte(creds))
		return p.admin(t, http.MethodPost, "/tier/G", "", []byte(`{"creds":"`+b64+`"}`))
	}
	want(t, edit(gaGCSCreds("client2", "secret2")), 200, "", "")
	want(t, edit(gaGCSCreds("client3", "nope")), 500, "TierEditFailed", "tier edit failed. "+uncertainMsg)
	if rec, _ := p.local.Tier("G"); !strings.Contains(rec.Creds, "client2") {
		t.Error("a refused edit replaced the stored credentials")
	}
	want(t, p.admin(t, http.MethodPost, "/tier/G", "", []byte(`{"accessKey":"a","secretKey":"b"}`)), 500, "TierEditFailed",
		"tier edit failed. Static access and secret keys cannot be used with a GCS tier")
}
