package rustfs

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// FuzzParseServiceAccountInfo: any body gives an error or an info whose
// server-supplied names are bounded valid UTF-8; a readable policy
// normalises idempotently and equals itself.
func FuzzParseServiceAccountInfo(f *testing.F) {
	seed, _ := json.Marshal(map[string]any{"parentUser": "rustfsadmin", "accountStatus": "on", "impliedPolicy": false,
		"policy": infoPolicy, "name": "team-a", "expiration": "2030-01-01T00:00:00Z"})
	f.Add(seed)
	f.Add([]byte(`{"parentUser":"u","accountStatus":"off","impliedPolicy":true,"policy":"{\"Version\":\"2012-10-17\",\"Statement\":[]}"}`))
	f.Add([]byte(`{"policy":5}`))
	f.Add([]byte(`{"expiration":"yesterday"}`))
	f.Add([]byte(`<html/>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		info, err := parseServiceAccountInfo(body)
		if err != nil {
			return
		}
		for _, s := range []string{info.ParentUser, info.Status, info.Name, info.Description} {
			if !utf8.ValidString(s) || len(s) > maxMessage+len("…") {
				t.Fatalf("a server string is not bounded valid UTF-8: %q", s)
			}
		}
		p, err := ParsePolicy(info.Policy)
		if err != nil {
			return
		}
		n := NormalisePolicy(p)
		if !EqualPolicies(p, p) || !EqualPolicies(p, n) {
			t.Fatal("a policy does not equal itself or its normal form")
		}
		if again := NormalisePolicy(n); !EqualPolicies(n, again) {
			t.Fatal("NormalisePolicy is not idempotent")
		}
	})
}

// FuzzSessionPolicyRoundTrip: a generated session policy, stored and
// rendered by the emulator as RustFS does (compact and pretty, condition
// values in hash-set order), reads back equal; a policy the client accepts
// is one RustFS accepts.
func FuzzSessionPolicyRoundTrip(f *testing.F) {
	f.Add("data", "", true, "logs", "app/", false)
	f.Add("a.b-c", "x", false, "a.b-c", "x/y/", true)
	f.Add("bucket", "é/ü/", true, "zzz", "", true)
	f.Fuzz(func(t *testing.T, b1, p1 string, rw1 bool, b2, p2 string, rw2 bool) {
		level := map[bool]Access{false: ReadOnly, true: ReadWrite}
		want, err := SessionPolicy([]BucketGrant{{Bucket: b1, Prefix: p1, Access: level[rw1]}, {Bucket: b2, Prefix: p2, Access: level[rw2]}})
		if err != nil {
			return
		}
		sent, err := compactPolicy(want)
		if err != nil {
			t.Fatal(err)
		}
		for _, pretty := range []bool{false, true} {
			text, err := rustfstest.RenderSessionPolicy(sent, pretty)
			if err != nil {
				t.Fatalf("RustFS would refuse a generated policy: %v\n%s", err, sent)
			}
			got, err := ParsePolicy(text)
			if err != nil {
				t.Fatalf("cannot read back the rendered policy: %v\n%s", err, text)
			}
			if !EqualPolicies(want, got) {
				t.Fatalf("round trip changed the policy:\nsent %s\ngot  %s", sent, text)
			}
		}
	})
}
