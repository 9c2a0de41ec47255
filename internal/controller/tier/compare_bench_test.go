package tier

import (
	"fmt"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// benchParams are the parameters of a Tier as a tenant declares it.
func benchParams(i int) v1alpha1.TierParameters {
	return v1alpha1.TierParameters{
		Name: fmt.Sprintf("TENANT-%04d", i), Type: v1alpha1.TierTypeS3, Endpoint: "https://s3.example.com",
		Bucket: "rustfs-cold", Prefix: fmt.Sprintf("tenant-%04d/", i), Region: "us-east-1", StorageClass: "GLACIER",
	}
}

// benchList returns what RustFS lists for n such tiers: prefixes without
// their trailing slash, as s3 normalises them, and the secret redacted.
func benchList(n int) []rustfs.Tier {
	out := make([]rustfs.Tier, n)
	for i := range out {
		t := desiredTier(benchParams(i))
		t.Prefix = t.Prefix[:len(t.Prefix)-1]
		t.AccessKey, t.SecretKey = "AKTENANT", "REDACTED"
		out[i] = t
	}
	return out
}

// BenchmarkSettingsDiff compares one live tier with its spec, as every
// Observe of an existing tier does.
func BenchmarkSettingsDiff(b *testing.B) {
	p := benchParams(7)
	live := benchList(8)[7]
	if d := settingsDiff(desiredTier(p), live); len(d) != 0 {
		b.Fatalf("the fixtures differ: %v", d)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = settingsDiff(desiredTier(p), live)
	}
}

// BenchmarkCredentialsDrift decides whether credentials must be applied,
// hashing the live access key as Observe does.
func BenchmarkCredentialsDrift(b *testing.B) {
	last := &applied{SecretName: "cold", SecretResourceVersion: "4242", AccessKeyHash: hashKey("AKTENANT")}
	want := applied{SecretName: "cold", SecretResourceVersion: "4242", AccessKeyHash: hashKey("AKTENANT")}
	b.ReportAllocs()
	for b.Loop() {
		if d := credentialsDrift(last, want, liveKeyHash("AKTENANT")); d != "" {
			b.Fatal(d)
		}
	}
}

// BenchmarkLookup finds one tier in the list of an endpoint with 10 and
// 1,000 tiers, as each Observe does with the shared list.
func BenchmarkLookup(b *testing.B) {
	for _, n := range []int{10, 1000} {
		tiers := benchList(n)
		name := tiers[n-1].Name
		b.Run(fmt.Sprintf("Tiers%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if lookupTier(tiers, name) == nil {
					b.Fatal("not found")
				}
			}
		})
	}
}

// BenchmarkObservation renders the live tier and the applied credentials
// as status.
func BenchmarkObservation(b *testing.B) {
	live := benchList(1)[0]
	last := &applied{SecretName: "cold", SecretResourceVersion: "4242", AccessKeyHash: hashKey("AKTENANT")}
	b.ReportAllocs()
	for b.Loop() {
		_ = observation(&live, last, nil)
	}
}
