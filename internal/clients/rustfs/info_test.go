package rustfs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rustfsInfo is an info answer as RustFS 1.0.0-rc.3 sends it
// (docs/rustfs-wire.md §15.3), shortened.
const rustfsInfo = `{"info":{"mode":"online","domain":null,"region":null,"sqsARN":null,` +
	`"deploymentID":"3c4576db-03ba-448c-9655-5579460267d7","buckets":{"count":1,"error":null},` +
	`"servers":[{"state":"online","endpoint":"node1:9000"}],"pools":{"0":{}}},` +
	`"admin_discovery":{"runtimeCapabilities":"/rustfs/admin/v4/runtime/capabilities"},"bitrotSelftest":"passed"}`

func TestParseDeploymentID(t *testing.T) {
	cases := map[string]struct {
		reason  string
		body    string
		want    string
		wantErr bool
	}{
		"Wrapped":        {reason: "beta.9 and later nest the ID in info", body: rustfsInfo, want: "3c4576db-03ba-448c-9655-5579460267d7"},
		"TopLevel":       {reason: "before beta.9 the InfoMessage is the body", body: `{"mode":"online","deploymentID":"abc-1"}`, want: "abc-1"},
		"NestedWins":     {reason: "the current shape wins over a stray top-level field", body: `{"deploymentID":"old","info":{"deploymentID":"new"}}`, want: "new"},
		"NullNested":     {reason: "before beta.5 the ID is null", body: `{"info":{"deploymentID":null}}`, want: ""},
		"NullTopLevel":   {reason: "before beta.5 the ID is null", body: `{"mode":"online","deploymentID":null}`, want: ""},
		"Absent":         {reason: "a server without the field", body: `{"info":{"mode":"online"}}`, want: ""},
		"Empty":          {reason: "an empty ID is no ID", body: `{"info":{"deploymentID":""}}`, want: ""},
		"NullInfo":       {reason: "null info falls back to the top level", body: `{"info":null,"deploymentID":"x"}`, want: "x"},
		"BadCharacters":  {reason: "server text outside the safe alphabet", body: `{"info":{"deploymentID":"a b"}}`, wantErr: true},
		"ControlChar":    {reason: "server text outside the safe alphabet", body: `{"info":{"deploymentID":"a\nb"}}`, wantErr: true},
		"TooLong":        {reason: "an ID is bounded", body: `{"info":{"deploymentID":"` + strings.Repeat("a", 129) + `"}}`, wantErr: true},
		"LongestAllowed": {reason: "128 characters are accepted", body: `{"info":{"deploymentID":"` + strings.Repeat("a", 128) + `"}}`, want: strings.Repeat("a", 128)},
		"NotAString":     {reason: "a number is not an ID", body: `{"info":{"deploymentID":42}}`, wantErr: true},
		"InfoNotObject":  {reason: "a different shape", body: `{"info":"x"}`, wantErr: true},
		"NotJSON":        {reason: "an HTML page from a proxy", body: `<html>ok</html>`, wantErr: true},
		"Array":          {reason: "not an object", body: `[]`, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseDeploymentID([]byte(tc.body))
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("%s: want %q (error %t), got %q, %v", tc.reason, tc.want, tc.wantErr, got, err)
			}
		})
	}
}

func TestNormalizeEndpoint(t *testing.T) {
	cases := map[string]struct {
		reason string
		raw    string
		want   string
		err    bool
	}{
		"Plain":              {raw: "http://127.0.0.1:9000", want: "http://127.0.0.1:9000"},
		"Case":               {reason: "scheme and host are case-insensitive", raw: "HTTP://RustFS.Example.COM:9000", want: "http://rustfs.example.com:9000"},
		"DefaultHTTPPort":    {reason: "the default port is made explicit", raw: "http://rustfs", want: "http://rustfs:80"},
		"DefaultHTTPSPort":   {reason: "the default port is made explicit", raw: "https://rustfs", want: "https://rustfs:443"},
		"ExplicitDefault":    {reason: "an explicit default port is kept", raw: "https://rustfs:443", want: "https://rustfs:443"},
		"EmptyPort":          {reason: "a colon without a port is the default", raw: "http://rustfs:", want: "http://rustfs:80"},
		"LeadingZeros":       {reason: "a port is a number", raw: "http://rustfs:09000", want: "http://rustfs:9000"},
		"TrailingSlash":      {reason: "no trailing slash", raw: "http://rustfs:9000/", want: "http://rustfs:9000"},
		"Path":               {reason: "no path", raw: "http://rustfs:9000/some/path/", want: "http://rustfs:9000"},
		"TrailingDot":        {reason: "a fully qualified name is the same host", raw: "http://rustfs.ns.svc.cluster.local.:9000", want: "http://rustfs.ns.svc.cluster.local:9000"},
		"IPv6":               {reason: "IPv6 keeps its brackets", raw: "http://[::1]:9000", want: "http://[::1]:9000"},
		"IPv6DefaultPort":    {reason: "IPv6 without a port", raw: "https://[2001:DB8::1]", want: "https://[2001:db8::1]:443"},
		"IPv6Long":           {reason: "IPv6 in canonical form", raw: "http://[2001:0db8:0000:0000:0000:0000:0000:0001]:9000", want: "http://[2001:db8::1]:9000"},
		"IPv4Mapped":         {reason: "an IPv4-mapped address is the IPv4 address", raw: "http://[::ffff:127.0.0.1]:9000", want: "http://127.0.0.1:9000"},
		"IPv6Zone":           {reason: "a zone stays escaped", raw: "http://[fe80::1%25eth0]:9000", want: "http://[fe80::1%25eth0]:9000"},
		"SpellingsStayApart": {reason: "only the deployment ID joins two names of one host", raw: "http://localhost:9000", want: "http://localhost:9000"},
		"OtherScheme":        {raw: "ftp://rustfs", err: true},
		"NoHost":             {raw: "http://", err: true},
		"OnlyDot":            {raw: "http://.:9000", err: true},
		"PortZero":           {raw: "http://rustfs:0", err: true},
		"PortTooLarge":       {raw: "http://rustfs:65536", err: true},
		"Query":              {raw: "http://rustfs:9000?x=1", err: true},
		"UserInfo":           {raw: "http://user:pass@rustfs:9000", err: true},
		"NotAURL":            {raw: "http://[::1", err: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := NormalizeEndpoint(tc.raw)
			if (err != nil) != tc.err {
				t.Fatalf("%s: NormalizeEndpoint(%q): error %v, want error %t", tc.reason, tc.raw, err, tc.err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: NormalizeEndpoint(%q): -want +got:\n%s", tc.reason, tc.raw, diff)
			}
			if err == nil {
				again, err := NormalizeEndpoint(got)
				if err != nil || again != got {
					t.Errorf("not idempotent: %q → %q, %v", got, again, err)
				}
			}
		})
	}
}
