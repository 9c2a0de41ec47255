package bucket

import (
	"fmt"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// Settings are what the spec asks of a bucket, or what RustFS reports.
type settings struct {
	Region     string
	ObjectLock bool
	Versioning rustfs.VersioningStatus
	Quota      quota
}

// desired returns the settings the spec asks for. The region is the spec's,
// else the ProviderConfig's, else us-east-1: S3 reports us-east-1 as an
// empty location, so "" and us-east-1 are the same region.
func desired(p v1alpha1.BucketParameters, pcRegion string) settings {
	r := p.Region
	if r == "" {
		r = pcRegion
	}
	return settings{Region: region(r), ObjectLock: p.ObjectLock, Versioning: rustfs.VersioningStatus(p.Versioning), Quota: wantQuota(p)}
}

func region(r string) string {
	if r == "" {
		return rustfs.DefaultRegion
	}
	return r
}

// conflicts returns one line for each setting that differs and cannot be
// changed on an existing bucket: the region and object lock.
func conflicts(want, got settings) []string {
	var out []string
	if region(want.Region) != region(got.Region) {
		out = append(out, fmt.Sprintf("spec.forProvider.region: live %q, desired %q", region(got.Region), region(want.Region)))
	}
	if want.ObjectLock != got.ObjectLock {
		out = append(out, fmt.Sprintf("spec.forProvider.objectLock: live %t, desired %t", got.ObjectLock, want.ObjectLock))
	}
	return out
}

// versioningDiff describes how versioning must change, or returns "" when
// it need not: the spec leaves it alone or it already matches.
func versioningDiff(want, got settings) string {
	if want.Versioning == rustfs.VersioningUnset || want.Versioning == got.Versioning {
		return ""
	}
	live := string(got.Versioning)
	if live == "" {
		live = "never enabled"
	}
	return fmt.Sprintf("spec.forProvider.versioning: live %s, desired %s", live, want.Versioning)
}

// observation returns status.atProvider for the live settings.
func observation(got settings, adopted bool) v1alpha1.BucketObservation {
	return withQuota(v1alpha1.BucketObservation{
		Region: got.Region, ObjectLock: got.ObjectLock, Versioning: v1alpha1.VersioningStatus(got.Versioning), Adopted: adopted,
	}, got.Quota)
}
