package rustfs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// tierListServer answers a tier list of one tier padded with whitespace to
// size bytes: valid JSON of any length.
func tierListServer(t *testing.T, size int) *httptest.Server {
	t.Helper()
	one := `[{"type":"s3","s3":{"name":"COLD","endpoint":"https://s3.example.com","accessKey":"ak","secretKey":"REDACTED","bucket":"b","prefix":"p/","region":"us-east-1"}}]`
	body := []byte(one + strings.Repeat(" ", size-len(one)))
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	t.Cleanup(s.Close)
	return s
}

// An answer longer than MaxBody is refused with a clear error before any
// decoder runs, even when it is valid; one of exactly MaxBody is read.
func TestOversizedAnswersAreRefused(t *testing.T) {
	cases := map[string]struct {
		reason string
		size   int
		want   bool // refused
	}{
		"AtTheCap":      {reason: "An answer of exactly MaxBody bytes is read and decoded.", size: MaxBody},
		"OverTheCap":    {reason: "One byte more is refused, although the JSON is valid.", size: MaxBody + 1, want: true},
		"FarOverTheCap": {reason: "A huge answer is refused without reading it all.", size: 4 * MaxBody, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := New(Config{Endpoint: tierListServer(t, tc.size).URL, AccessKey: "ak", SecretKey: sentinel})
			if err != nil {
				t.Fatal(err)
			}
			tiers, err := c.ListTiers(context.Background())
			if !tc.want {
				if err != nil || len(tiers) != 1 {
					t.Fatalf("%s\nListTiers: %d tiers, error %v; want 1 tier", tc.reason, len(tiers), err)
				}
				return
			}
			if !IsBodyTooLarge(err) || !strings.Contains(err.Error(), "response body exceeds 8 MiB") || tiers != nil {
				t.Errorf("%s\nListTiers: %d tiers, error %v; want the body refused as exceeding 8 MiB", tc.reason, len(tiers), err)
			}
		})
	}
}

// largestLifecycle is a 1,000-rule lifecycle whose rules carry a 255-byte
// ID, a 1,024-byte prefix, two tags of the longest key and value S3 allows,
// and every action.
func largestLifecycle() *Lifecycle {
	l := &Lifecycle{}
	for i := range 1000 {
		days := int32(30)
		l.Rules = append(l.Rules, LifecycleRule{
			ID: fmt.Sprintf("%0255d", i), Status: "Enabled",
			Filter: &LifecycleFilter{And: &LifecycleAnd{Prefix: ptr(strings.Repeat("p", 1024)), Tags: []Tag{
				{Key: strings.Repeat("k", 128), Value: strings.Repeat("v", 256)}, {Key: strings.Repeat("K", 128), Value: strings.Repeat("V", 256)}},
				ObjectSizeGreaterThan: ptr(int64(1 << 20)), ObjectSizeLessThan: ptr(int64(1 << 40))}},
			Expiration:                     &Expiration{Days: ptr(int32(3650))},
			Transitions:                    []Transition{{Days: &days, StorageClass: "WARM-TIER"}, {Days: ptr(int32(90)), StorageClass: "COLD-TIER"}},
			NoncurrentVersionTransitions:   []NoncurrentVersionTransition{{NoncurrentDays: &days, NewerNoncurrentVersions: ptr(int32(3)), StorageClass: "COLD-TIER"}},
			NoncurrentVersionExpiration:    &NoncurrentVersionExpiration{NoncurrentDays: ptr(int32(365)), NewerNoncurrentVersions: ptr(int32(5))},
			AbortIncompleteMultipartUpload: &AbortIncompleteMultipartUpload{DaysAfterInitiation: ptr(int32(7))},
		})
	}
	return l
}

// longestTierList is a list of 1,000 s3 tiers with 512-byte endpoints and
// prefixes, as RustFS lists them.
func longestTierList() []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		t := tierBackendJSON{Name: fmt.Sprintf("TIER-%04d", i), Endpoint: "https://" + strings.Repeat("e", 500) + ".example.com",
			AccessKey: strings.Repeat("A", 128), SecretKey: redacted, Bucket: strings.Repeat("b", 63),
			Prefix: strings.Repeat("p", 512), Region: "ap-southeast-1", StorageClass: ptr("STANDARD_IA")}
		inner, _ := json.Marshal(t) // plain strings
		fmt.Fprintf(&b, `{"type":"s3","s3":%s}`, inner)
	}
	b.WriteString("]")
	return b.Bytes()
}

// The cap leaves room for the largest legitimate answers: each renders to
// at most half of MaxBody, and decodes.
func TestBodyCapHoldsTheLargestAnswers(t *testing.T) {
	lc, err := encodeLifecycle(largestLifecycle())
	if err != nil {
		t.Fatal(err)
	}
	list := longestTierList()
	for name, body := range map[string][]byte{"Lifecycle": lc, "TierList": list} {
		t.Logf("%s: %d bytes (%.2f MiB), cap %d MiB; %d '<', %d '{'", name, len(body), float64(len(body))/(1<<20), MaxBody>>20,
			bytes.Count(body, []byte("<")), bytes.Count(body, []byte("{")))
		if len(body) > MaxBody/2 {
			t.Errorf("%s: the largest legitimate answer is %d bytes, more than half of MaxBody (%d)", name, len(body), MaxBody)
		}
	}
	if l, err := decodeLifecycle(lc); err != nil || len(l.Rules) != 1000 {
		t.Errorf("decodeLifecycle: %v", err)
	}
	if tiers, err := parseTierList(list); err != nil || len(tiers) != 1000 {
		t.Errorf("parseTierList: %v", err)
	}
}

// Answers over an element budget are refused before they are decoded.
func TestElementBudgets(t *testing.T) {
	cases := map[string]struct {
		reason string
		decode func() error
	}{
		"TierList": {reason: "A list of more empty tiers than the budget is refused.", decode: func() error {
			_, err := parseTierList([]byte("[" + strings.Repeat(`{"type":"s3","s3":{}},`, maxTierObjects/2) + `{"type":"s3","s3":{}}]`))
			return err
		}},
		"TierStats": {reason: "Tier stats with more objects than the budget are refused.", decode: func() error {
			_, err := parseTierStats([]byte(`{"contractVersion":2,"tiers":[` + strings.Repeat(`{},`, maxStatsObjects) + `{}]}`))
			return err
		}},
		"LifecycleRules": {reason: "A lifecycle of more than 1,000 rules is refused.", decode: func() error {
			_, err := decodeLifecycle([]byte("<LifecycleConfiguration>" + strings.Repeat("<Rule >\n</Rule>", maxLifecycleRules+1) + "</LifecycleConfiguration>"))
			return err
		}},
		"LifecycleElements": {reason: "A lifecycle of more elements than the budget is refused.", decode: func() error {
			_, err := decodeLifecycle([]byte("<LifecycleConfiguration><Rule>" + strings.Repeat("<Transition/>", maxLifecycleElements) + "</Rule></LifecycleConfiguration>"))
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if err := tc.decode(); err == nil || !strings.Contains(err.Error(), "more than") {
				t.Errorf("%s\ngot error %v, want a refusal", tc.reason, err)
			}
		})
	}
}

// BenchmarkDecodeHostileAnswers measures what an answer built to allocate
// the most within the element budgets costs to decode: bytes per op is the
// figure to watch.
func BenchmarkDecodeHostileAnswers(b *testing.B) {
	tiers := []byte("[" + strings.Repeat(`{"type":"s3","s3":{}},`, maxTierObjects/2-1) + `{"type":"s3","s3":{}}]`)
	rules := []byte("<LifecycleConfiguration>" + strings.Repeat("<Rule>"+strings.Repeat("<Transition/>", maxLifecycleElements/maxLifecycleRules-4)+"</Rule>", maxLifecycleRules) + "</LifecycleConfiguration>")
	b.Run("TierList", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_, _ = parseTierList(tiers)
		}
	})
	b.Run("Lifecycle", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_, _ = decodeLifecycle(rules)
		}
	})
}
