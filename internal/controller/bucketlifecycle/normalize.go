package bucketlifecycle

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// dateOnly is the YYYY-MM-DD form the API accepts for dates.
const dateOnly = "2006-01-02"

// normalize returns a canonical copy of l, so that two configurations that
// RustFS treats the same compare equal: rules sorted by ID, Status defaulted
// to Enabled, the legacy top-level prefix folded into the filter, empty
// filters and empty prefixes removed, an And with a single condition lifted
// into the filter, tags and transitions sorted, dates rendered as RFC 3339 in
// UTC, and false or zero optional values that mean "unset" removed. A nil
// configuration or one without rules normalises to nil. l is not modified.
func normalize(l *rustfs.Lifecycle) *rustfs.Lifecycle {
	if l == nil || len(l.Rules) == 0 {
		return nil
	}
	out := &rustfs.Lifecycle{Rules: make([]rustfs.LifecycleRule, len(l.Rules))}
	for i, r := range l.Rules {
		out.Rules[i] = normalizeRule(r)
	}
	slices.SortStableFunc(out.Rules, func(a, b rustfs.LifecycleRule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func normalizeRule(r rustfs.LifecycleRule) rustfs.LifecycleRule {
	out := rustfs.LifecycleRule{ID: r.ID, Status: r.Status}
	if out.Status == "" {
		out.Status = string(rustfsEnabled)
	}
	f := r.Filter
	if f == nil && r.Prefix != nil && *r.Prefix != "" {
		f = &rustfs.LifecycleFilter{Prefix: r.Prefix}
	}
	out.Filter = normalizeFilter(f)
	out.Expiration = normalizeExpiration(r.Expiration)
	out.Transitions = normalizeTransitions(r.Transitions)
	out.NoncurrentVersionTransitions = normalizeNoncurrentTransitions(r.NoncurrentVersionTransitions)
	if x := r.NoncurrentVersionExpiration; x != nil {
		out.NoncurrentVersionExpiration = &rustfs.NoncurrentVersionExpiration{
			NoncurrentDays: x.NoncurrentDays, NewerNoncurrentVersions: nonZero(x.NewerNoncurrentVersions),
		}
	}
	if x := r.AbortIncompleteMultipartUpload; x != nil {
		out.AbortIncompleteMultipartUpload = &rustfs.AbortIncompleteMultipartUpload{DaysAfterInitiation: x.DaysAfterInitiation}
	}
	if x := r.DelMarkerExpiration; x != nil {
		out.DelMarkerExpiration = &rustfs.DelMarkerExpiration{Days: x.Days}
	}
	return out
}

// rustfsEnabled is the default rule status.
const rustfsEnabled = "Enabled"

// normalizeFilter returns nil for a filter that selects the whole bucket.
func normalizeFilter(f *rustfs.LifecycleFilter) *rustfs.LifecycleFilter {
	if f == nil {
		return nil
	}
	out := &rustfs.LifecycleFilter{
		Prefix: nonEmpty(f.Prefix), ObjectSizeGreaterThan: f.ObjectSizeGreaterThan, ObjectSizeLessThan: f.ObjectSizeLessThan,
	}
	if f.Tag != nil {
		t := *f.Tag
		out.Tag = &t
	}
	if a := normalizeAnd(f.And); a != nil && !liftAnd(out, a) {
		out.And = a
	}
	if *out == (rustfs.LifecycleFilter{}) {
		return nil
	}
	return out
}

func normalizeAnd(a *rustfs.LifecycleAnd) *rustfs.LifecycleAnd {
	if a == nil {
		return nil
	}
	out := &rustfs.LifecycleAnd{
		Prefix: nonEmpty(a.Prefix), ObjectSizeGreaterThan: a.ObjectSizeGreaterThan, ObjectSizeLessThan: a.ObjectSizeLessThan,
	}
	if len(a.Tags) > 0 {
		out.Tags = slices.Clone(a.Tags)
		slices.SortFunc(out.Tags, func(x, y rustfs.Tag) int {
			return cmp.Or(strings.Compare(x.Key, y.Key), strings.Compare(x.Value, y.Value))
		})
	}
	if out.Prefix == nil && out.ObjectSizeGreaterThan == nil && out.ObjectSizeLessThan == nil && len(out.Tags) == 0 {
		return nil
	}
	return out
}

// liftAnd moves an And holding exactly one condition into f, when f has no
// condition of its own, and reports whether it did.
func liftAnd(f *rustfs.LifecycleFilter, a *rustfs.LifecycleAnd) bool {
	if *f != (rustfs.LifecycleFilter{}) {
		return false
	}
	n := len(a.Tags)
	for _, set := range []bool{a.Prefix != nil, a.ObjectSizeGreaterThan != nil, a.ObjectSizeLessThan != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return false
	}
	f.Prefix, f.ObjectSizeGreaterThan, f.ObjectSizeLessThan = a.Prefix, a.ObjectSizeGreaterThan, a.ObjectSizeLessThan
	if len(a.Tags) == 1 {
		t := a.Tags[0]
		f.Tag = &t
	}
	return true
}

func normalizeExpiration(x *rustfs.Expiration) *rustfs.Expiration {
	if x == nil {
		return nil
	}
	out := &rustfs.Expiration{
		Days: x.Days, Date: normalizeDate(x.Date),
		ExpiredObjectDeleteMarker: trueOnly(x.ExpiredObjectDeleteMarker), ExpiredObjectAllVersions: trueOnly(x.ExpiredObjectAllVersions),
	}
	if *out == (rustfs.Expiration{}) {
		return nil
	}
	return out
}

func normalizeTransitions(ts []rustfs.Transition) []rustfs.Transition {
	if len(ts) == 0 {
		return nil
	}
	out := make([]rustfs.Transition, len(ts))
	for i, t := range ts {
		out[i] = rustfs.Transition{Days: t.Days, Date: normalizeDate(t.Date), StorageClass: t.StorageClass}
	}
	slices.SortStableFunc(out, func(a, b rustfs.Transition) int {
		return cmp.Or(cmpInt(a.Days, b.Days), strings.Compare(a.Date, b.Date), strings.Compare(a.StorageClass, b.StorageClass))
	})
	return out
}

func normalizeNoncurrentTransitions(ts []rustfs.NoncurrentVersionTransition) []rustfs.NoncurrentVersionTransition {
	if len(ts) == 0 {
		return nil
	}
	out := make([]rustfs.NoncurrentVersionTransition, len(ts))
	for i, t := range ts {
		out[i] = rustfs.NoncurrentVersionTransition{
			NoncurrentDays: t.NoncurrentDays, NewerNoncurrentVersions: nonZero(t.NewerNoncurrentVersions), StorageClass: t.StorageClass,
		}
	}
	slices.SortStableFunc(out, func(a, b rustfs.NoncurrentVersionTransition) int {
		return cmp.Or(cmpInt(a.NoncurrentDays, b.NoncurrentDays), cmpInt(a.NewerNoncurrentVersions, b.NewerNoncurrentVersions),
			strings.Compare(a.StorageClass, b.StorageClass))
	})
	return out
}

// normalizeDate renders a YYYY-MM-DD or RFC 3339 date as RFC 3339 in UTC
// (2026-01-01T00:00:00Z), the form RustFS parses; anything else is returned
// trimmed, so that it still compares by its text.
func normalizeDate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	t, err := parseDate(s)
	if err != nil {
		return s
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// parseDate parses YYYY-MM-DD or an RFC 3339 timestamp.
func parseDate(s string) (time.Time, error) {
	layout := time.RFC3339Nano
	if len(s) == len(dateOnly) {
		layout = dateOnly
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date as YYYY-MM-DD or YYYY-MM-DDT00:00:00Z", s)
	}
	return t, nil
}

func nonEmpty(s *string) *string {
	if s == nil || *s == "" {
		return nil
	}
	v := *s
	return &v
}

func nonZero(i *int32) *int32 {
	if i == nil || *i == 0 {
		return nil
	}
	v := *i
	return &v
}

func trueOnly(b *bool) *bool {
	if b == nil || !*b {
		return nil
	}
	v := true
	return &v
}

// cmpInt orders absent before present, then by value.
func cmpInt(a, b *int32) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Compare(*a, *b)
}
