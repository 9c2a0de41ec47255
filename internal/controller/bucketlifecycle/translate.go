package bucketlifecycle

import (
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// translate renders the spec's rules as the configuration to put, or nil
// when there are none. Dates are sent as RFC 3339 (RustFS does not parse a
// bare YYYY-MM-DD); a rule without a filter gets an empty one, which selects
// the whole bucket and is accepted by every S3 implementation.
func translate(rules []v1alpha1.LifecycleRule) *rustfs.Lifecycle {
	if len(rules) == 0 {
		return nil
	}
	out := &rustfs.Lifecycle{Rules: make([]rustfs.LifecycleRule, len(rules))}
	for i, r := range rules {
		out.Rules[i] = translateRule(r)
	}
	return out
}

func translateRule(r v1alpha1.LifecycleRule) rustfs.LifecycleRule {
	out := rustfs.LifecycleRule{ID: r.ID, Status: string(r.Status), Filter: translateFilter(r.Filter)}
	if out.Status == "" {
		out.Status = string(v1alpha1.RuleEnabled)
	}
	for _, t := range r.Transitions {
		out.Transitions = append(out.Transitions, rustfs.Transition{
			Days: copyInt32(t.Days), Date: normalizeDate(t.Date), StorageClass: t.StorageClass,
		})
	}
	for _, t := range r.NoncurrentVersionTransitions {
		out.NoncurrentVersionTransitions = append(out.NoncurrentVersionTransitions, rustfs.NoncurrentVersionTransition{
			NoncurrentDays: int32p(t.NoncurrentDays), NewerNoncurrentVersions: copyInt32(t.NewerNoncurrentVersions), StorageClass: t.StorageClass,
		})
	}
	if x := r.Expiration; x != nil {
		out.Expiration = &rustfs.Expiration{
			Days: copyInt32(x.Days), Date: normalizeDate(x.Date),
			ExpiredObjectDeleteMarker: copyBool(x.ExpiredObjectDeleteMarker), ExpiredObjectAllVersions: copyBool(x.ExpiredObjectAllVersions),
		}
	}
	if x := r.NoncurrentVersionExpiration; x != nil {
		out.NoncurrentVersionExpiration = &rustfs.NoncurrentVersionExpiration{
			NoncurrentDays: int32p(x.NoncurrentDays), NewerNoncurrentVersions: copyInt32(x.NewerNoncurrentVersions),
		}
	}
	if x := r.AbortIncompleteMultipartUpload; x != nil {
		out.AbortIncompleteMultipartUpload = &rustfs.AbortIncompleteMultipartUpload{DaysAfterInitiation: int32p(x.DaysAfterInitiation)}
	}
	if x := r.DelMarkerExpiration; x != nil {
		out.DelMarkerExpiration = &rustfs.DelMarkerExpiration{Days: int32p(x.Days)}
	}
	return out
}

func translateFilter(f *v1alpha1.LifecycleFilter) *rustfs.LifecycleFilter {
	out := &rustfs.LifecycleFilter{}
	if f == nil {
		return out
	}
	out.Prefix = stringp(f.Prefix)
	out.ObjectSizeGreaterThan, out.ObjectSizeLessThan = copyInt64(f.ObjectSizeGreaterThan), copyInt64(f.ObjectSizeLessThan)
	if f.Tag != nil {
		out.Tag = &rustfs.Tag{Key: f.Tag.Key, Value: f.Tag.Value}
	}
	if a := f.And; a != nil {
		out.And = &rustfs.LifecycleAnd{
			Prefix:                stringp(a.Prefix),
			ObjectSizeGreaterThan: copyInt64(a.ObjectSizeGreaterThan), ObjectSizeLessThan: copyInt64(a.ObjectSizeLessThan),
		}
		for _, t := range a.Tags {
			out.And.Tags = append(out.And.Tags, rustfs.Tag{Key: t.Key, Value: t.Value})
		}
	}
	return out
}

// stringp returns nil for "", so that an empty prefix is not sent.
func stringp(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func int32p(i int32) *int32 { return &i }

func copyInt32(i *int32) *int32 {
	if i == nil {
		return nil
	}
	v := *i
	return &v
}

func copyInt64(i *int64) *int64 {
	if i == nil {
		return nil
	}
	v := *i
	return &v
}

func copyBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}
