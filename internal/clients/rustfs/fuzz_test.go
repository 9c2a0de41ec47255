package rustfs

import (
	"encoding/json"
	"net/http"
	"sort"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// FuzzParseError: any status and body give an APIError with that status, a
// bounded valid-UTF-8 message and a non-empty Error().
func FuzzParseError(f *testing.F) {
	f.Add(500, []byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>TierNameBackendInUse!</Code><Message>tier backend is already in use</Message><RequestId>1</RequestId></Error>`))
	f.Add(409, []byte(`{"Code":"XMinioAdminTierBackendInUse","Message":"Specified remote tier is already in use","RequestId":"x"}`))
	f.Add(404, []byte{})
	f.Add(502, []byte("<html>bad gateway</html>"))
	f.Add(400, []byte(`{"Code":`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := parseError(status, http.Header{}, body, nil)
		if e.Status != status {
			t.Fatalf("status %d, want %d", e.Status, status)
		}
		for _, s := range []string{e.Code, e.Message, e.RequestID} {
			if !utf8.ValidString(s) || len(s) > maxMessage+len("…") {
				t.Fatalf("field not bounded valid UTF-8: %q", s)
			}
		}
		if e.Error() == "" {
			t.Fatal("empty Error()")
		}
	})
}

// FuzzParseTierList: a decoded list is sorted by name, and every tier of a
// known type re-encodes and decodes to itself.
func FuzzParseTierList(f *testing.F) {
	f.Add([]byte(`[{"type":"rustfs","rustfs":{"name":"COLDTIER","endpoint":"http://127.0.0.1:9001","accessKey":"AK","secretKey":"REDACTED","bucket":"ilm7-cold-tier","prefix":"tiered","region":"us-east-1","storageClass":""}}]`))
	f.Add([]byte(`[{"type":"minio","minio":{"name":"B","endpoint":"e","accessKey":"a","secretKey":"REDACTED","bucket":"b","prefix":"","region":""}},{"type":"s3","s3":{"name":"A","storageClass":"GLACIER"}}]`))
	f.Add([]byte(`[{"type":"gcs","gcs":{"name":"G","creds":"REDACTED"}}]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		tiers, err := parseTierList(body)
		if err != nil {
			return
		}
		if !sort.SliceIsSorted(tiers, func(i, j int) bool { return tiers[i].Name < tiers[j].Name }) {
			t.Fatal("not sorted by name")
		}
		for _, tier := range tiers {
			if !knownTypes[tier.Type] || tier.Name == "" {
				continue
			}
			if !tier.Type.HasStorageClass() {
				tier.StorageClass = ""
			}
			b, err := encodeTier(tier)
			if err != nil {
				t.Fatalf("encodeTier: %v", err)
			}
			again, err := parseTierList(append(append([]byte("["), b...), ']'))
			if err != nil || len(again) != 1 {
				t.Fatalf("re-parse %s: %v", b, err)
			}
			if diff := cmp.Diff(tier, again[0]); diff != "" {
				t.Fatalf("re-encode: -want +got:\n%s", diff)
			}
		}
	})
}

// FuzzLifecycleRoundTrip: client decode → client encode → the emulator's
// parse and render (server element order, server date format, assigned IDs)
// → client decode gives the same configuration after normalisation.
func FuzzLifecycleRoundTrip(f *testing.F) {
	seed, _ := encodeLifecycle(fullLifecycle())
	f.Add(seed)
	f.Add([]byte(`<LifecycleConfiguration><Rule><Filter><Prefix>logs/</Prefix></Filter><Status>Enabled</Status><Transition><Days>0</Days><StorageClass>COLD</StorageClass></Transition></Rule></LifecycleConfiguration>`))
	f.Add([]byte(`<LifecycleConfiguration><Rule><ID>x</ID><Status>Enabled</Status><Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration></Rule><Rule><Status>Disabled</Status><Prefix></Prefix><Filter/></Rule></LifecycleConfiguration>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		l1, err := decodeLifecycle(body)
		if err != nil {
			return
		}
		enc, err := encodeLifecycle(l1)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		rendered, err := rustfstest.RenderLifecycle(enc)
		if err != nil {
			return // the server refuses it (for example a date that is not ISO 8601)
		}
		l2, err := decodeLifecycle(rendered)
		if err != nil {
			t.Fatalf("decode server rendering: %v\n%s", err, rendered)
		}
		if len(l2.Rules) != len(l1.Rules) {
			t.Fatalf("rules: want %d, got %d", len(l1.Rules), len(l2.Rules))
		}
		for i := range l1.Rules {
			if l1.Rules[i].ID == "" {
				l1.Rules[i].ID = l2.Rules[i].ID // server-assigned
			}
		}
		if diff := cmp.Diff(normaliseLifecycle(l1), normaliseLifecycle(l2)); diff != "" {
			t.Fatalf("round trip: -want +got:\n%s", diff)
		}
	})
}

// FuzzParseDeploymentID: any body gives an error or an ID that is empty or
// within the safe alphabet and length; an ID embedded in either answer shape
// (docs/rustfs-wire.md §15.4) is read back exactly when it is valid.
func FuzzParseDeploymentID(f *testing.F) {
	f.Add([]byte(rustfsInfo), "3c4576db-03ba-448c-9655-5579460267d7")
	f.Add([]byte(`{"mode":"online","deploymentID":null}`), "")
	f.Add([]byte(`{"info":{"deploymentID":"a b"}}`), "a\u00e9b")
	f.Add([]byte(`<html/>`), "x.y_z-1")
	f.Fuzz(func(t *testing.T, body []byte, id string) {
		got, err := parseDeploymentID(body)
		if err == nil && got != "" && !validDeploymentID(got) {
			t.Fatalf("accepted an unsafe ID %q", got)
		}
		for _, shape := range []map[string]any{{"info": map[string]any{"deploymentID": id}}, {"deploymentID": id}} {
			b, err := json.Marshal(shape)
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseDeploymentID(b)
			switch {
			case id == "" && (err != nil || got != ""):
				t.Fatalf("empty ID: got %q, %v", got, err)
			case id != "" && validDeploymentID(id) && (err != nil || got != id):
				t.Fatalf("valid ID %q: got %q, %v", id, got, err)
			case id != "" && !validDeploymentID(id) && err == nil:
				t.Fatalf("invalid ID %q accepted as %q", id, got)
			}
		}
	})
}
