package bucketlifecycle

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// A field is one leaf of a normalised configuration: its path, spelled as
// in the BucketLifecycle spec (rules[<id>].expiration.days), and its value.
type field struct {
	rule  string // the rule ID
	path  string // below the rule, for example "expiration.days"
	value string
}

// String returns the field's full path.
func (f field) String() string { return "rules[" + f.rule + "]." + f.path }

// flatten returns the leaves of l, which must be normalised, in a stable
// order: rules by ID, then fields in a fixed order.
func flatten(l *rustfs.Lifecycle) []field {
	if l == nil {
		return nil
	}
	var out []field
	for _, r := range l.Rules {
		out = append(out, flattenRule(r)...)
	}
	return out
}

func flattenRule(r rustfs.LifecycleRule) []field {
	w := &writer{rule: r.ID}
	w.add("status", r.Status)
	if f := r.Filter; f != nil {
		w.ptr("filter.prefix", f.Prefix)
		if f.Tag != nil {
			w.add("filter.tag["+f.Tag.Key+"]", f.Tag.Value)
		}
		w.int64("filter.objectSizeGreaterThan", f.ObjectSizeGreaterThan)
		w.int64("filter.objectSizeLessThan", f.ObjectSizeLessThan)
		if a := f.And; a != nil {
			w.ptr("filter.and.prefix", a.Prefix)
			for _, t := range a.Tags {
				w.add("filter.and.tags["+t.Key+"]", t.Value)
			}
			w.int64("filter.and.objectSizeGreaterThan", a.ObjectSizeGreaterThan)
			w.int64("filter.and.objectSizeLessThan", a.ObjectSizeLessThan)
		}
	}
	for i, t := range r.Transitions {
		p := "transitions[" + strconv.Itoa(i) + "]."
		w.int32(p+"days", t.Days)
		w.str(p+"date", t.Date)
		w.add(p+"storageClass", t.StorageClass)
	}
	for i, t := range r.NoncurrentVersionTransitions {
		p := "noncurrentVersionTransitions[" + strconv.Itoa(i) + "]."
		w.int32(p+"noncurrentDays", t.NoncurrentDays)
		w.int32(p+"newerNoncurrentVersions", t.NewerNoncurrentVersions)
		w.add(p+"storageClass", t.StorageClass)
	}
	flattenActions(w, r)
	return w.out
}

func flattenActions(w *writer, r rustfs.LifecycleRule) {
	if x := r.Expiration; x != nil {
		w.int32("expiration.days", x.Days)
		w.str("expiration.date", x.Date)
		w.bool("expiration.expiredObjectDeleteMarker", x.ExpiredObjectDeleteMarker)
		w.bool("expiration.expiredObjectAllVersions", x.ExpiredObjectAllVersions)
	}
	if x := r.NoncurrentVersionExpiration; x != nil {
		w.int32("noncurrentVersionExpiration.noncurrentDays", x.NoncurrentDays)
		w.int32("noncurrentVersionExpiration.newerNoncurrentVersions", x.NewerNoncurrentVersions)
	}
	if x := r.AbortIncompleteMultipartUpload; x != nil {
		w.int32("abortIncompleteMultipartUpload.daysAfterInitiation", x.DaysAfterInitiation)
	}
	if x := r.DelMarkerExpiration; x != nil {
		w.int32("delMarkerExpiration.days", x.Days)
	}
}

// A writer collects the fields of one rule.
type writer struct {
	rule string
	out  []field
}

func (w *writer) add(path, v string) { w.out = append(w.out, field{rule: w.rule, path: path, value: v}) }

func (w *writer) str(path, v string) {
	if v != "" {
		w.add(path, v)
	}
}

func (w *writer) ptr(path string, v *string) {
	if v != nil {
		w.add(path, *v)
	}
}

func (w *writer) int32(path string, v *int32) {
	if v != nil {
		w.add(path, strconv.FormatInt(int64(*v), 10))
	}
}

func (w *writer) int64(path string, v *int64) {
	if v != nil {
		w.add(path, strconv.FormatInt(*v, 10))
	}
}

func (w *writer) bool(path string, v *bool) {
	if v != nil {
		w.add(path, strconv.FormatBool(*v))
	}
}

// hash digests a configuration after normalising it. Equal hashes mean
// equal normalised configurations; the empty configuration hashes to "".
func hash(l *rustfs.Lifecycle) string {
	return hashFields(flatten(normalize(l)))
}

func hashFields(fs []field) string {
	if len(fs) == 0 {
		return ""
	}
	h := sha256.New()
	for _, f := range fs {
		for _, s := range []string{f.rule, f.path, f.value} {
			_ = binary.Write(h, binary.BigEndian, uint32(len(s)))
			_, _ = h.Write([]byte(s))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// compare normalises desired and live and returns their differences, one
// readable line each, sorted; none means they are equal.
func compare(desired, live *rustfs.Lifecycle) []string {
	d, l := byRule(flatten(normalize(desired))), byRule(flatten(normalize(live)))
	var out []string
	for _, id := range ruleIDs(d, l) {
		dr, lr := d[id], l[id]
		switch {
		case lr == nil:
			out = append(out, fmt.Sprintf("rules[%s]: missing from the live configuration", id))
		case dr == nil:
			out = append(out, fmt.Sprintf("rules[%s]: in the live configuration but not in the spec", id))
		default:
			out = append(out, compareRule(dr, lr)...)
		}
	}
	return out
}

func compareRule(d, l map[string]field) []string {
	var out []string
	for _, p := range paths(d, l) {
		df, dok := d[p]
		lf, lok := l[p]
		switch {
		case !lok:
			out = append(out, fmt.Sprintf("%s: live absent, desired %q", df, df.value))
		case !dok:
			out = append(out, fmt.Sprintf("%s: live %q, desired absent", lf, lf.value))
		case df.value != lf.value:
			out = append(out, fmt.Sprintf("%s: live %q, desired %q", df, lf.value, df.value))
		}
	}
	return out
}

// dropped returns the paths of the fields of put, a configuration the
// provider put, that readback, what RustFS returned afterwards, does not
// hold with the same value. A rule missing altogether is one path.
func dropped(put, readback *rustfs.Lifecycle) []string {
	p, r := byRule(flatten(normalize(put))), byRule(flatten(normalize(readback)))
	var out []string
	for _, id := range ruleIDs(p, nil) {
		if r[id] == nil {
			out = append(out, "rules["+id+"]")
			continue
		}
		for _, path := range paths(p[id], nil) {
			if f, ok := r[id][path]; !ok || f.value != p[id][path].value {
				out = append(out, p[id][path].String())
			}
		}
	}
	return out
}

// byRule indexes fields by rule ID, then by path.
func byRule(fs []field) map[string]map[string]field {
	out := map[string]map[string]field{}
	for _, f := range fs {
		if out[f.rule] == nil {
			out[f.rule] = map[string]field{}
		}
		out[f.rule][f.path] = f
	}
	return out
}

func ruleIDs(a, b map[string]map[string]field) []string {
	return sortedUnion(a, b)
}

func paths(a, b map[string]field) []string {
	return sortedUnion(a, b)
}

func sortedUnion[V any](a, b map[string]V) []string {
	out := make([]string, 0, len(a)+len(b))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
