package bucket

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

func TestDesired(t *testing.T) {
	cases := map[string]struct {
		reason   string
		params   v1alpha1.BucketParameters
		pcRegion string
		want     settings
	}{
		"SpecRegion": {
			reason: "The spec's region wins.",
			params: v1alpha1.BucketParameters{Region: "eu-west-1"}, pcRegion: "us-west-2",
			want: settings{Region: "eu-west-1"},
		},
		"ProviderConfigRegion": {
			reason:   "Without one, the ProviderConfig's region applies.",
			pcRegion: "us-west-2",
			want:     settings{Region: "us-west-2"},
		},
		"DefaultRegion": {
			reason: "Without either, us-east-1 applies, which S3 reports as an empty location.",
			want:   settings{Region: "us-east-1"},
		},
		"LockAndVersioning": {
			reason: "Object lock and versioning are carried over.",
			params: v1alpha1.BucketParameters{ObjectLock: true, Versioning: v1alpha1.VersioningEnabled},
			want:   settings{Region: "us-east-1", ObjectLock: true, Versioning: rustfs.VersioningEnabled},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, desired(tc.params, tc.pcRegion)); diff != "" {
				t.Errorf("%s\ndesired(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestConflicts(t *testing.T) {
	cases := map[string]struct {
		reason    string
		want, got settings
		conflicts []string
	}{
		"Same": {
			reason: "Equal settings do not conflict.",
			want:   settings{Region: "us-east-1"}, got: settings{Region: "us-east-1"},
		},
		"EmptyLocation": {
			reason: "An empty location is us-east-1.",
			want:   settings{Region: "us-east-1"}, got: settings{Region: ""},
		},
		"VersioningIsNoConflict": {
			reason: "Versioning can change, so it never conflicts.",
			want:   settings{Region: "us-east-1", Versioning: rustfs.VersioningEnabled}, got: settings{Region: "us-east-1"},
		},
		"Region": {
			reason:    "A different region names both values.",
			want:      settings{Region: "us-east-1"},
			got:       settings{Region: "eu-west-1"},
			conflicts: []string{`spec.forProvider.region: live "eu-west-1", desired "us-east-1"`},
		},
		"ObjectLock": {
			reason:    "A different object-lock setting names both values.",
			want:      settings{Region: "us-east-1"},
			got:       settings{Region: "us-east-1", ObjectLock: true},
			conflicts: []string{"spec.forProvider.objectLock: live true, desired false"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.conflicts, conflicts(tc.want, tc.got)); diff != "" {
				t.Errorf("%s\nconflicts(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestVersioningDiff(t *testing.T) {
	cases := map[string]struct {
		reason    string
		want, got rustfs.VersioningStatus
		diff      string
	}{
		"Unset":     {reason: "A spec without versioning leaves it alone.", got: rustfs.VersioningEnabled},
		"Same":      {reason: "Equal versioning needs no update.", want: rustfs.VersioningSuspended, got: rustfs.VersioningSuspended},
		"Enable":    {reason: "A never-versioned bucket is named as such.", want: rustfs.VersioningEnabled, diff: "spec.forProvider.versioning: live never enabled, desired Enabled"},
		"Suspended": {reason: "A change names both states.", want: rustfs.VersioningSuspended, got: rustfs.VersioningEnabled, diff: "spec.forProvider.versioning: live Enabled, desired Suspended"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := versioningDiff(settings{Versioning: tc.want}, settings{Versioning: tc.got}); got != tc.diff {
				t.Errorf("%s\nversioningDiff(...): want %q, got %q", tc.reason, tc.diff, got)
			}
		})
	}
}
