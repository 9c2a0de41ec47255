package bucketlifecycle

import (
	"encoding/xml"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// A fuzzInput turns fuzzer bytes into lifecycle rules.
type fuzzInput struct {
	b []byte
	i int
}

func (f *fuzzInput) next() byte {
	if f.i >= len(f.b) {
		return 0
	}
	c := f.b[f.i]
	f.i++
	return c
}

func (f *fuzzInput) bit() bool { return f.next()&1 == 1 }

const fuzzAlphabet = "abcXYZ019-_./&<>"

// word returns up to 7 characters, including XML-special ones.
func (f *fuzzInput) word() string {
	n := int(f.next() % 8)
	out := make([]byte, n)
	for i := range out {
		out[i] = fuzzAlphabet[int(f.next())%len(fuzzAlphabet)]
	}
	return string(out)
}

func (f *fuzzInput) date() string {
	s := fmt.Sprintf("%04d-%02d-%02d", 1971+int(f.next()), 1+int(f.next()%12), 1+int(f.next()%28))
	if f.bit() {
		return s + "T00:00:00Z"
	}
	return s
}

func (f *fuzzInput) days() *int32 {
	d := int32(f.next())
	return &d
}

func (f *fuzzInput) rules() []v1alpha1.LifecycleRule {
	n := 1 + int(f.next()%5)
	out := make([]v1alpha1.LifecycleRule, n)
	for i := range out {
		r := v1alpha1.LifecycleRule{ID: fmt.Sprintf("r%d%s", i, f.word())}
		if f.bit() {
			r.Status = v1alpha1.RuleDisabled
		}
		r.Filter = f.filter()
		for range f.next() % 3 {
			t := v1alpha1.Transition{StorageClass: "T" + f.word()}
			if f.bit() {
				t.Date = f.date()
			} else {
				t.Days = f.days()
			}
			r.Transitions = append(r.Transitions, t)
		}
		f.actions(&r)
		out[i] = r
	}
	return out
}

func (f *fuzzInput) filter() *v1alpha1.LifecycleFilter {
	switch f.next() % 5 {
	case 1:
		return &v1alpha1.LifecycleFilter{Prefix: f.word()}
	case 2:
		return &v1alpha1.LifecycleFilter{Tag: &v1alpha1.LifecycleTag{Key: "k" + f.word(), Value: f.word()}}
	case 3:
		a := &v1alpha1.LifecycleFilterAnd{Prefix: f.word()}
		for i := range f.next() % 3 {
			a.Tags = append(a.Tags, v1alpha1.LifecycleTag{Key: fmt.Sprintf("k%d%s", i, f.word()), Value: f.word()})
		}
		if f.bit() {
			s := int64(f.next())
			a.ObjectSizeGreaterThan = &s
		}
		return &v1alpha1.LifecycleFilter{And: a}
	case 4:
		s := int64(f.next()) + 1
		return &v1alpha1.LifecycleFilter{ObjectSizeLessThan: &s}
	}
	return nil
}

func (f *fuzzInput) actions(r *v1alpha1.LifecycleRule) {
	if f.bit() {
		x := &v1alpha1.LifecycleExpiration{Days: f.days()}
		if f.bit() {
			x = &v1alpha1.LifecycleExpiration{Date: f.date()}
		}
		r.Expiration = x
	}
	if f.bit() {
		r.NoncurrentVersionTransitions = []v1alpha1.NoncurrentVersionTransition{{NoncurrentDays: int32(f.next()),
			NewerNoncurrentVersions: f.days(), StorageClass: "T" + f.word()}}
	}
	if f.bit() {
		r.NoncurrentVersionExpiration = &v1alpha1.NoncurrentVersionExpiration{NoncurrentDays: 1 + int32(f.next())}
	}
	if f.bit() {
		r.AbortIncompleteMultipartUpload = &v1alpha1.AbortIncompleteMultipartUpload{DaysAfterInitiation: 1 + int32(f.next())}
	}
	if f.bit() {
		r.DelMarkerExpiration = &v1alpha1.DelMarkerExpiration{Days: 1 + int32(f.next())}
	}
}

// roundTrip sends l through the emulator's parser and renderer, as a put
// followed by a get would, and decodes the result as the client does.
func roundTrip(t *testing.T, l *rustfs.Lifecycle) *rustfs.Lifecycle {
	t.Helper()
	body, err := xml.Marshal(l)
	if err != nil {
		t.Fatalf("cannot encode: %v", err)
	}
	rendered, err := rustfstest.RenderLifecycle(body)
	if err != nil {
		t.Fatalf("the emulator cannot parse what the provider puts: %v", err)
	}
	back := &rustfs.Lifecycle{}
	if err := xml.Unmarshal(rendered, back); err != nil {
		t.Fatalf("cannot decode what the emulator returns: %v", err)
	}
	return back
}

// FuzzNormalize checks that normalisation is idempotent, and that a
// configuration put and read back through the emulator compares equal to
// the one put and hashes alike.
func FuzzNormalize(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x03\x01\x02\x05\x01\x02\x03\x07abc\x01\x01\x01"))
	f.Add([]byte("\x04\xff\x03\x02\x00\x02\x09\x11\x01\x01\x01\x01\x01\x01\x01\x01\x01\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{b: data}
		desired := translate(in.rules())
		back := roundTrip(t, desired)
		for name, l := range map[string]*rustfs.Lifecycle{"desired": desired, "read back": back, "raw dates": rawDates(desired, in)} {
			once := normalize(l)
			if diff := cmp.Diff(once, normalize(once)); diff != "" {
				t.Fatalf("normalize is not idempotent on the %s configuration: -once, +twice:\n%s", name, diff)
			}
		}
		if d := compare(desired, back); len(d) > 0 {
			t.Fatalf("a configuration read back from the emulator differs from the one put: %q", d)
		}
		if hash(desired) != hash(back) {
			t.Fatal("a configuration read back from the emulator hashes differently from the one put")
		}
	})
}

// rawDates returns a copy of l whose dates are arbitrary text.
func rawDates(l *rustfs.Lifecycle, in *fuzzInput) *rustfs.Lifecycle {
	out := &rustfs.Lifecycle{}
	for _, r := range l.Rules {
		r.Transitions = append([]rustfs.Transition(nil), r.Transitions...)
		for i := range r.Transitions {
			r.Transitions[i].Date = " " + in.word() + " "
		}
		out.Rules = append(out.Rules, r)
	}
	return out
}
