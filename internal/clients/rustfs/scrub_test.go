package rustfs

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScrub(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      string
		secrets []string
		want    string
	}{
		"Long": {reason: "A key of 8 bytes or more goes wherever it occurs, inside words too.",
			in: "key=SECRETKEY1 and xSECRETKEY1x", secrets: []string{"SECRETKEY1"}, want: "key=REDACTED and xREDACTEDx"},
		"ShortAlone": {reason: "A key of 4-7 bytes goes only where it stands alone.",
			in: `"abcd" abcdef xabcd abcd`, secrets: []string{"abcd"}, want: `"REDACTED" abcdef xabcd REDACTED`},
		"TooShort": {reason: "A key under 4 bytes is left alone: replacing it would blank out every message.",
			in: "a b abc", secrets: []string{"abc", "a"}, want: "a b abc"},
		"JSONEscaped": {reason: "A key echoed inside JSON is found in its escaped form.",
			in: `{"secretKey":"se\"cret/\\key"}`, secrets: []string{`se"cret/\key`}, want: `{"secretKey":"REDACTED"}`},
		"XMLEscaped": {reason: "A key echoed inside raw XML is found in its escaped form.",
			in: `<K>a&amp;b&lt;c-12345</K>`, secrets: []string{"a&b<c-12345"}, want: `<K>REDACTED</K>`},
		"Base64": {reason: "A service account echoed base64-encoded is found.",
			in: "creds=" + base64.StdEncoding.EncodeToString([]byte(`{"private_key":"pk"}`)), secrets: []string{`{"private_key":"pk"}`}, want: "creds=REDACTED"},
		"LongestFirst": {reason: "A key that contains another is replaced whole.",
			in: "x secret-key-long y", secrets: []string{"secret-key", "secret-key-long"}, want: "x REDACTED y"},
		"Empty": {reason: "No keys, no change.", in: "nothing to hide", want: "nothing to hide"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Scrub(tc.in, tc.secrets...)); diff != "" {
				t.Errorf("%s\nScrub: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// echoServer answers every request with a 400 whose body quotes the request
// body: as an XML <Message>, or raw when raw is set.
func echoServer(t *testing.T, raw bool) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusBadRequest)
		if raw {
			_, _ = w.Write([]byte("proxy refused: " + string(body) + " key " + sentinel))
			return
		}
		_, _ = w.Write([]byte("<Error><Code>InvalidArgument</Code><Message>cannot use " + xmlText(string(body)) +
			" as " + sentinel + "</Message><RequestId>req-" + sentinel + "</RequestId></Error>"))
	}))
	t.Cleanup(s.Close)
	return s
}

func xmlText(s string) string { return xmlEscape(s) }

// A server or proxy that echoes the request, tier keys and service account
// included, or the admin secret key, gets its text scrubbed before any
// error holds it: the key values never appear, REDACTED does.
func TestEchoedSecretsAreScrubbed(t *testing.T) {
	sa := `{"type":"authorized_user","client_id":"x.apps.googleusercontent.com","client_secret":"cs-sentinel-SECRET","refresh_token":"rt-sentinel-SECRET"}`
	for name, raw := range map[string]bool{"XML": false, "Raw": true} {
		t.Run(name, func(t *testing.T) {
			c, err := New(Config{Endpoint: echoServer(t, raw).URL, AccessKey: "admin-access-key", SecretKey: sentinel})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			tier := Tier{Type: TierS3, Name: "COLD", Endpoint: "https://s3.example.com", AccessKey: "tier-access-key",
				SecretKey: remoteSK, Bucket: "b", Region: "us-east-1"}
			gcs := Tier{Type: TierGCS, Name: "GCS", Endpoint: "https://storage.googleapis.com", Creds: sa, Bucket: "b"}
			errs := map[string]error{
				"AddTier":                c.AddTier(ctx, tier, false),
				"AddTierGCS":             c.AddTier(ctx, gcs, false),
				"EditTierCredentials":    c.EditTierCredentials(ctx, "COLD", "tier-access-key", remoteSK),
				"EditTierGCSCredentials": c.EditTierGCSCredentials(ctx, "GCS", sa),
				"UpdateServiceAccount":   c.UpdateServiceAccount(ctx, "svcacct1", ServiceAccountUpdate{SecretKey: "sa-secret-sentinel"}),
			}
			for op, err := range errs {
				if err == nil {
					t.Errorf("%s: want an error", op)
					continue
				}
				for _, s := range append(formats(err), ptrMessage(err)) {
					for _, secret := range []string{sentinel, remoteSK, "cs-sentinel-SECRET", "rt-sentinel-SECRET", "sa-secret-sentinel", base64.StdEncoding.EncodeToString([]byte(sa))} {
						if strings.Contains(s, secret) {
							t.Errorf("%s: error shows a secret: %s", op, s)
						}
					}
				}
				if !strings.Contains(err.Error(), "REDACTED") {
					t.Errorf("%s: error %q; want the echoed keys shown as REDACTED", op, err)
				}
			}
		})
	}
}

func ptrMessage(err error) string {
	if e, ok := apiError(err); ok {
		return e.Code + e.Message + e.RequestID
	}
	return ""
}

// An endpoint with user info, a query or a fragment is refused, and the
// error never repeats the user info.
func TestEndpointsWithUserInfoAreRefusedWithoutEcho(t *testing.T) {
	cases := map[string]string{
		"UserInfo":    "http://user:pa55-sentinel@rustfs:9000",
		"UserOnly":    "https://pa55-sentinel@rustfs:9000",
		"Unparsable":  "http://user:pa55-sentinel@rust fs:9000/%zz",
		"SlashInPass": "http://user:pa/55-sentinel@rustfs:9000",
		"Query":       "http://rustfs:9000/?token=pa55-sentinel",
		"Fragment":    "http://rustfs:9000/#pa55-sentinel",
		"WrongScheme": "ftp://user:pa55-sentinel@rustfs:9000",
		"EmptyQuery":  "http://rustfs:9000?",
		"AtInPass":    "http://user:pa55@sentinel@rustfs:9000",
	}
	for name, ep := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := New(Config{Endpoint: ep, AccessKey: "ak", SecretKey: sentinel})
			if err == nil {
				t.Fatalf("New(%q): want an error", ep)
			}
			for _, s := range formats(err) {
				if strings.Contains(s, "pa55") || strings.Contains(s, "user:") {
					t.Errorf("error shows the user info, query or fragment: %s", s)
				}
			}
		})
	}
}

// A tier whose remote endpoint carries user info is refused before any
// request, and the error does not repeat it.
func TestTierEndpointWithUserInfoIsNotSent(t *testing.T) {
	var requests int
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { requests++ }))
	defer s.Close()
	c, err := New(Config{Endpoint: s.URL, AccessKey: "ak", SecretKey: sentinel})
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{"https://ak:pa55-sentinel@s3.example.com", "https://s3.example.com/?sig=pa55-sentinel", "https://s3.example.com/#pa55"} {
		err := c.AddTier(context.Background(), Tier{Type: TierS3, Name: "COLD", Endpoint: ep, AccessKey: "ak", SecretKey: "sk", Bucket: "b"}, false)
		if err == nil || strings.Contains(err.Error(), "pa55") {
			t.Errorf("AddTier with endpoint %q: error %v; want a refusal that does not quote the user info, query or fragment", ep, err)
		}
	}
	if requests != 0 {
		t.Errorf("%d requests reached RustFS, want 0", requests)
	}
}
