package bucketlifecycle

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// A field is one leaf of a normalised rule: its path below the rule,
// spelled as in the BucketLifecycle spec (expiration.days), and its value.
type field struct {
	path  string
	value string
}

// A flatRule is the fields of one rule, in a fixed order.
type flatRule struct {
	id     string
	fields []field
}

// flatten returns the leaves of l, which must be normalised: rules in l's
// order (by ID), fields in a fixed order.
func flatten(l *rustfs.Lifecycle) []flatRule {
	if l == nil {
		return nil
	}
	out := make([]flatRule, len(l.Rules))
	for i, r := range l.Rules {
		out[i] = flatRule{id: r.ID, fields: flattenRule(r)}
	}
	return out
}

func flattenRule(r rustfs.LifecycleRule) []field {
	w := &writer{out: make([]field, 0, 16)}
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
	out []field
}

func (w *writer) add(path, v string) { w.out = append(w.out, field{path: path, value: v}) }

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
	rules := flatten(normalize(l))
	if len(rules) == 0 {
		return ""
	}
	h := sha256.New()
	var n [4]byte
	write := func(s string) {
		binary.BigEndian.PutUint32(n[:], uint32(len(s)))
		_, _ = h.Write(n[:])
		_, _ = io.WriteString(h, s)
	}
	for _, r := range rules {
		write(r.id)
		for _, f := range r.fields {
			write(f.path)
			write(f.value)
		}
		write("")
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// compare normalises desired and live and returns their differences, one
// readable line each, ordered by rule ID and path; none means they are
// equal.
func compare(desired, live *rustfs.Lifecycle) []string {
	var out []string
	join(flatten(normalize(desired)), flatten(normalize(live)), func(id string, d, l *flatRule) {
		switch {
		case l == nil:
			out = append(out, fmt.Sprintf("rules[%s]: missing from the live configuration", id))
		case d == nil:
			out = append(out, fmt.Sprintf("rules[%s]: in the live configuration but not in the spec", id))
		case !slices.Equal(d.fields, l.fields):
			out = append(out, compareRule(id, d.fields, l.fields)...)
		}
	})
	return out
}

func compareRule(id string, d, l []field) []string {
	dm, lm := byPath(d), byPath(l)
	var out []string
	for _, p := range sortedUnion(dm, lm) {
		dv, dok := dm[p]
		lv, lok := lm[p]
		name := "rules[" + id + "]." + p
		switch {
		case !lok:
			out = append(out, fmt.Sprintf("%s: live absent, desired %q", name, dv))
		case !dok:
			out = append(out, fmt.Sprintf("%s: live %q, desired absent", name, lv))
		case dv != lv:
			out = append(out, fmt.Sprintf("%s: live %q, desired %q", name, lv, dv))
		}
	}
	return out
}

// dropped returns the paths of the fields of put, a configuration the
// provider put, that readback, what RustFS returned afterwards, does not
// hold with the same value. A rule missing altogether is one path.
func dropped(put, readback *rustfs.Lifecycle) []string {
	var out []string
	join(flatten(normalize(put)), flatten(normalize(readback)), func(id string, p, r *flatRule) {
		switch {
		case p == nil:
		case r == nil:
			out = append(out, "rules["+id+"]")
		case !slices.Equal(p.fields, r.fields):
			rm := byPath(r.fields)
			for _, f := range p.fields {
				if v, ok := rm[f.path]; !ok || v != f.value {
					out = append(out, "rules["+id+"]."+f.path)
				}
			}
		}
	})
	return out
}

// join calls fn for every rule ID of a and b, both sorted by ID, with the
// rule of each side or nil.
func join(a, b []flatRule, fn func(id string, x, y *flatRule)) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].id < b[j].id:
			fn(a[i].id, &a[i], nil)
			i++
		case i == len(a) || b[j].id < a[i].id:
			fn(b[j].id, nil, &b[j])
			j++
		default:
			fn(a[i].id, &a[i], &b[j])
			i, j = i+1, j+1
		}
	}
}

func byPath(fs []field) map[string]string {
	m := make(map[string]string, len(fs))
	for _, f := range fs {
		m[f.path] = f.value
	}
	return m
}

func sortedUnion(a, b map[string]string) []string {
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
