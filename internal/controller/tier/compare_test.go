package tier

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

type liveModifier func(*rustfs.Tier)

func live(m ...liveModifier) rustfs.Tier {
	t := rustfs.Tier{Type: rustfs.TierRustFS, Name: "COLD", Endpoint: "https://r.example.com", Bucket: "b", Prefix: "p/", Region: "us-east-1"}
	for _, f := range m {
		f(&t)
	}
	return t
}

func TestSettingsDiff(t *testing.T) {
	cases := map[string]struct {
		reason  string
		desired rustfs.Tier
		live    rustfs.Tier
		want    []fieldDiff
	}{
		"Same": {reason: "Identical settings do not differ.", desired: live(), live: live()},
		"TrailingSlash": {reason: "RustFS strips one trailing '/' from a non-s3 prefix.",
			desired: live(func(t *rustfs.Tier) { t.Prefix = "p" }), live: live()},
		"LeadingSlashNonS3": {reason: "A leading '/' is kept for non-s3 types, so it differs.",
			desired: live(func(t *rustfs.Tier) { t.Prefix = "/p/" }), live: live(),
			want: []fieldDiff{{Field: "prefix", Live: "p/", Desired: "/p/"}}},
		"S3Slashes": {reason: "s3 trims '/' on both sides.",
			desired: live(func(t *rustfs.Tier) { t.Type, t.Prefix = rustfs.TierS3, "/p" }),
			live:    live(func(t *rustfs.Tier) { t.Type, t.Prefix = rustfs.TierS3, "p//" })},
		"WasabiSlashes": {reason: "Wasabi builds an s3 backend, which trims '/' on both sides: /x/ and x// are x (docs/rustfs-wire.md §18).",
			desired: live(func(t *rustfs.Tier) { t.Type, t.Prefix = rustfs.TierWasabi, "/x/" }),
			live:    live(func(t *rustfs.Tier) { t.Type, t.Prefix = rustfs.TierWasabi, "x//" })},
		"WasabiLeadingSlash": {reason: "A Wasabi prefix with a leading '/' is the same as without it.",
			desired: live(func(t *rustfs.Tier) { t.Type, t.Prefix = rustfs.TierWasabi, "/x" }),
			live:    live(func(t *rustfs.Tier) { t.Type, t.Prefix = rustfs.TierWasabi, "x" })},
		"Everything": {reason: "Every differing setting is named, in spec order.",
			desired: live(), live: rustfs.Tier{Type: rustfs.TierMinIO, Name: "COLD", Endpoint: "https://o", Bucket: "c", Prefix: "q/", Region: "eu"},
			want: []fieldDiff{{"type", "minio", "rustfs"}, {"endpoint", "https://o", "https://r.example.com"},
				{"bucket", "c", "b"}, {"prefix", "q/", "p/"}, {"region", "eu", "us-east-1"}}},
		"EndpointExact": {reason: "RustFS identifies a backend by its endpoint as written.",
			desired: live(func(t *rustfs.Tier) { t.Endpoint += "/" }), live: live(),
			want: []fieldDiff{{"endpoint", "https://r.example.com", "https://r.example.com/"}}},
		"StorageClassS3": {reason: "storageClass is compared for s3.",
			desired: live(func(t *rustfs.Tier) { t.Type, t.StorageClass = rustfs.TierS3, "GLACIER" }),
			live:    live(func(t *rustfs.Tier) { t.Type = rustfs.TierS3 }),
			want:    []fieldDiff{{"storageClass", "", "GLACIER"}}},
		"StorageClassRustFS": {reason: "RustFS ignores storageClass for other types.",
			desired: live(), live: live(func(t *rustfs.Tier) { t.StorageClass = "X" })},
		"CredentialsIgnored": {reason: "Credentials are not settings; they are rotated.",
			desired: live(), live: live(func(t *rustfs.Tier) { t.AccessKey, t.SecretKey = "AK", redacted })},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, settingsDiff(tc.desired, tc.live)); diff != "" {
				t.Errorf("%s\nsettingsDiff: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCredentialsDrift(t *testing.T) {
	want := applied{SecretName: "s", SecretResourceVersion: "2", AccessKeyHash: hashKey("AK")}
	cases := map[string]struct {
		reason string
		last   *applied
		live   string
		edit   bool
	}{
		"NothingApplied":   {reason: "An adopted tier gets the Secret's credentials once.", live: "AK", edit: true},
		"Same":             {reason: "The same Secret version and live key need no edit.", last: &want, live: "AK"},
		"NewVersion":       {reason: "A new Secret resourceVersion is applied.", last: &applied{SecretName: "s", SecretResourceVersion: "1", AccessKeyHash: want.AccessKeyHash}, live: "AK", edit: true},
		"OtherSecret":      {reason: "A different Secret is applied.", last: &applied{SecretName: "t", SecretResourceVersion: "2", AccessKeyHash: want.AccessKeyHash}, live: "AK", edit: true},
		"OutOfBandKey":     {reason: "A live access key that is not the Secret's is corrected.", last: &want, live: "OTHER", edit: true},
		"RedactedLiveKey":  {reason: "A REDACTED live key is not compared.", last: &want, live: redacted},
		"EmptyLiveKey":     {reason: "An empty live key is not compared.", last: &want, live: ""},
		"RedactedRotation": {reason: "With a REDACTED key the Secret version still decides.", last: &applied{SecretName: "s", SecretResourceVersion: "1"}, live: redacted, edit: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := credentialsDrift(tc.last, want, liveKeyHash(tc.live))
			if (got != "") != tc.edit {
				t.Errorf("%s\ncredentialsDrift = %q, want edit %t", tc.reason, got, tc.edit)
			}
		})
	}
}

func TestObservationHoldsNoSecretAndSpecSpelling(t *testing.T) {
	l := live(func(t *rustfs.Tier) { t.Type, t.AccessKey, t.SecretKey = rustfs.TierHuaweiCloud, tierAK, tierSK })
	o := observation(&l, &applied{SecretName: "s", SecretResourceVersion: "7", AccessKeyHash: hashKey(tierAK)},
		&v1alpha1.Custody{Acquired: v1alpha1.AcquiredAdopted})
	want := v1alpha1.TierObservation{Type: v1alpha1.TierTypeHuaweiCloud, Endpoint: l.Endpoint, Bucket: "b", Prefix: "p/", Region: "us-east-1",
		AccessKeyHash: hashKey(tierAK), Credentials: &v1alpha1.TierCredentialsStatus{SecretName: "s", SecretResourceVersion: "7", AccessKeyHash: hashKey(tierAK)},
		Adopted: true}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("observation: -want +got:\n%s", diff)
	}
	unknown := live(func(t *rustfs.Tier) { t.Type = "Unsupported" })
	if got := observation(&unknown, nil, nil).Type; got != "" {
		t.Errorf("a type the API cannot spell must be left empty (the schema would refuse it), got %q", got)
	}
	for spec, wire := range wireTypes {
		if specType(wire) != spec || wireType(spec) != wire {
			t.Errorf("type mapping of %s/%s does not round-trip", spec, wire)
		}
	}
}

func TestDriftMessageNamesFieldsAndNextAction(t *testing.T) {
	got := driftMessage("COLD", []fieldDiff{{"type", "minio", "rustfs"}, {"prefix", "a/", "b/"}})
	want := `Tier "COLD" exists in RustFS with settings RustFS cannot change on a registered tier: ` +
		`spec.forProvider.type is "RustFS" but RustFS has "MinIO"; spec.forProvider.prefix is "b/" but RustFS has "a/". ` +
		`The provider never removes a tier: set these fields to the live values, or use a new spec.forProvider.name for a new tier.`
	if got != want {
		t.Errorf("driftMessage:\n got %s\nwant %s", got, want)
	}
}
