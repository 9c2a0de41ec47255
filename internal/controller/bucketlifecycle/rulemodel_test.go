package bucketlifecycle

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// The rule model property test: generated specs that together set every
// field of every rule element go through the controller (translate, PUT)
// into the emulator; the configuration the emulator stores, as its GET
// renders it, is decoded by this file's own XML types and compared field by
// field with what the spec asks for, mapped by this file's expect, never by
// the provider's translation. A field lost between spec and wire fails it.

// The wire form of a rule as this test reads it (docs/rustfs-wire.md §8.1).
type xRule struct {
	ID                          string        `xml:"ID"`
	Status                      string        `xml:"Status"`
	Prefix                      *string       `xml:"Prefix"`
	Filter                      *xFilter      `xml:"Filter"`
	Transitions                 []xTransition `xml:"Transition"`
	NoncurrentTransitions       []xNCTrans    `xml:"NoncurrentVersionTransition"`
	Expiration                  *xExpiration  `xml:"Expiration"`
	NoncurrentVersionExpiration *xNCExp       `xml:"NoncurrentVersionExpiration"`
	Abort                       *xAbort       `xml:"AbortIncompleteMultipartUpload"`
	DelMarkerExpiration         *xDays        `xml:"DelMarkerExpiration"`
}

type xFilter struct {
	Prefix *string `xml:"Prefix"`
	Tag    *xTag   `xml:"Tag"`
	And    *xAnd   `xml:"And"`
	GT     *int64  `xml:"ObjectSizeGreaterThan"`
	LT     *int64  `xml:"ObjectSizeLessThan"`
}

type xAnd struct {
	Prefix *string `xml:"Prefix"`
	Tags   []xTag  `xml:"Tag"`
	GT     *int64  `xml:"ObjectSizeGreaterThan"`
	LT     *int64  `xml:"ObjectSizeLessThan"`
}

type xTag struct {
	Key   string `xml:"Key"`
	Value string `xml:"Value"`
}

type xTransition struct {
	Days         *int32  `xml:"Days"`
	Date         *string `xml:"Date"`
	StorageClass string  `xml:"StorageClass"`
}

type xNCTrans struct {
	NoncurrentDays *int32 `xml:"NoncurrentDays"`
	Newer          *int32 `xml:"NewerNoncurrentVersions"`
	StorageClass   string `xml:"StorageClass"`
}

type xExpiration struct {
	Days *int32  `xml:"Days"`
	Date *string `xml:"Date"`
	EODM *bool   `xml:"ExpiredObjectDeleteMarker"`
	EOAV *bool   `xml:"ExpiredObjectAllVersions"`
}

type xNCExp struct {
	NoncurrentDays *int32 `xml:"NoncurrentDays"`
	Newer          *int32 `xml:"NewerNoncurrentVersions"`
}

type xAbort struct {
	Days *int32 `xml:"DaysAfterInitiation"`
}

type xDays struct {
	Days *int32 `xml:"Days"`
}

// decodeStored reads the emulator's stored configuration, rules sorted by
// ID and dates as midnight UTC days.
func decodeStored(t *testing.T, body []byte) []xRule {
	t.Helper()
	var cfg struct {
		Rules []xRule `xml:"Rule"`
	}
	if err := xml.Unmarshal(body, &cfg); err != nil {
		t.Fatalf("cannot decode the stored configuration: %v", err)
	}
	for i := range cfg.Rules {
		r := &cfg.Rules[i]
		for j := range r.Transitions {
			r.Transitions[j].Date = day(t, r.Transitions[j].Date)
		}
		if r.Expiration != nil {
			r.Expiration.Date = day(t, r.Expiration.Date)
		}
	}
	slices.SortFunc(cfg.Rules, func(a, b xRule) int { return strings.Compare(a.ID, b.ID) })
	return cfg.Rules
}

// day renders a date (YYYY-MM-DD or RFC 3339) as YYYY-MM-DD, failing on
// any other time of day than midnight UTC.
func day(t *testing.T, s *string) *string {
	t.Helper()
	if s == nil {
		return nil
	}
	d, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		d, err = time.Parse("2006-01-02", *s)
	}
	if err != nil || d.UTC().Format("15:04:05") != "00:00:00" {
		t.Fatalf("date %q is not midnight UTC: %v", *s, err)
	}
	v := d.UTC().Format("2006-01-02")
	return &v
}

// expect maps the spec to the rules RustFS must store, written from the
// API's documentation and docs/rustfs-wire.md §8, independently of translate.go: status
// defaults to Enabled; a rule without a filter gets an empty one (the whole
// bucket); empty prefixes are not sent; every other field is sent as given.
func expect(t *testing.T, rules []v1alpha1.LifecycleRule) []xRule {
	t.Helper()
	out := make([]xRule, 0, len(rules))
	for _, r := range rules {
		x := xRule{ID: r.ID, Status: string(r.Status), Filter: expectFilter(r.Filter)}
		if x.Status == "" {
			x.Status = "Enabled"
		}
		for _, tr := range r.Transitions {
			x.Transitions = append(x.Transitions, xTransition{Days: tr.Days, Date: day(t, wireString(tr.Date)),
				StorageClass: modelClass(tr.StorageClass, tr.TierRef, tr.TierSelector)})
		}
		for _, tr := range r.NoncurrentVersionTransitions {
			nd := tr.NoncurrentDays
			x.NoncurrentTransitions = append(x.NoncurrentTransitions, xNCTrans{NoncurrentDays: &nd, Newer: tr.NewerNoncurrentVersions,
				StorageClass: modelClass(tr.StorageClass, tr.TierRef, tr.TierSelector)})
		}
		if e := r.Expiration; e != nil {
			x.Expiration = &xExpiration{Days: e.Days, Date: day(t, wireString(e.Date)), EODM: e.ExpiredObjectDeleteMarker, EOAV: e.ExpiredObjectAllVersions}
		}
		if e := r.NoncurrentVersionExpiration; e != nil {
			nd := e.NoncurrentDays
			x.NoncurrentVersionExpiration = &xNCExp{NoncurrentDays: &nd, Newer: e.NewerNoncurrentVersions}
		}
		if a := r.AbortIncompleteMultipartUpload; a != nil {
			d := a.DaysAfterInitiation
			x.Abort = &xAbort{Days: &d}
		}
		if d := r.DelMarkerExpiration; d != nil {
			days := d.Days
			x.DelMarkerExpiration = &xDays{Days: &days}
		}
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b xRule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// modelClass is the storage class a transition must reach the wire with:
// its storageClass, or else the model tier its tierRef or tierSelector
// names (the model Tier objects are the tiers' names in lower case).
func modelClass(class string, ref *xpv2.NamespacedReference, sel *xpv2.NamespacedSelector) string {
	switch {
	case class != "":
		return class
	case ref != nil:
		return strings.ToUpper(ref.Name)
	case sel != nil:
		return strings.ToUpper(sel.MatchLabels[modelTierLabel])
	}
	return ""
}

func expectFilter(f *v1alpha1.LifecycleFilter) *xFilter {
	x := &xFilter{}
	if f == nil {
		return x
	}
	x.Prefix, x.GT, x.LT = wireString(f.Prefix), f.ObjectSizeGreaterThan, f.ObjectSizeLessThan
	if f.Tag != nil {
		x.Tag = &xTag{Key: f.Tag.Key, Value: f.Tag.Value}
	}
	if a := f.And; a != nil {
		x.And = &xAnd{Prefix: wireString(a.Prefix), GT: a.ObjectSizeGreaterThan, LT: a.ObjectSizeLessThan}
		for _, tg := range a.Tags {
			x.And.Tags = append(x.And.Tags, xTag{Key: tg.Key, Value: tg.Value})
		}
	}
	return x
}

func wireString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// modelSpecs generates n specs from seed and fails unless, together, they
// set every field of modelFields.
func modelSpecs(t *testing.T, seed uint64, n int) []modelSpec {
	t.Helper()
	g := newRuleGen(seed)
	specs := make([]modelSpec, n)
	for i := range specs {
		specs[i] = g.spec()
	}
	for _, f := range modelFields {
		if !g.seen[f] {
			t.Fatalf("the %d generated specs never set %s: raise n", n, f)
		}
	}
	return specs
}

// modelObjects are the Ready Tier objects of the model tiers, labelled for
// selectors, and the Ready Bucket object of bucket, labelled likewise, in
// namespace ns: what the generated references resolve to.
func modelObjects(ns, bucket string) []client.Object {
	var out []client.Object
	for _, tier := range modelTiers {
		tr := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: modelTierObject(tier),
			Labels: map[string]string{modelTierLabel: modelTierObject(tier)}}}
		tr.Spec.ForProvider = v1alpha1.TierParameters{Name: tier, Type: v1alpha1.TierTypeRustFS, Endpoint: "http://remote.example:9000",
			Bucket: "remote", CredentialsSecretRef: v1alpha1.TierSecretReference{Name: "remote"}}
		out = append(out, tr)
	}
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: bucket, Labels: map[string]string{modelBucketLabel: bucket}}}
	meta.SetExternalName(b, bucket)
	return append(out, b)
}

// modelBucketLabel labels the model Bucket objects with their names.
const modelBucketLabel = "model-bucket"

// selectBucket names the bucket of a lifecycle by bucketSelector.
func selectBucket(bucket string) lcModifier {
	return func(cr *v1alpha1.BucketLifecycle) {
		cr.Spec.ForProvider.Bucket = ""
		cr.Spec.ForProvider.BucketSelector = &xpv2.NamespacedSelector{MatchLabels: map[string]string{modelBucketLabel: bucket}}
	}
}

// nameBucket names bucket as s asks.
func (s modelSpec) nameBucket(bucket string) lcModifier {
	if s.selected {
		return selectBucket(bucket)
	}
	return withBucket(bucket)
}

func TestRuleModelSurvivesTranslationFieldByField(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			h := newHarness(t)
			for _, tier := range modelTiers {
				h.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: tier})
			}
			for i, s := range modelSpecs(t, seed, 60) {
				bucket := fmt.Sprintf("model-%d", i)
				h.rfs.CreateBucket(bucket, false)
				h.storeReady(modelObjects(ns, bucket)[len(modelTiers):]...)
				if i == 0 {
					h.storeReady(modelObjects(ns, bucket)[:len(modelTiers)]...)
				}
				cr := h.store(lifecycle(withMeta(ns, bucket, 0), s.nameBucket(bucket), withRules(s.rules...)))
				h.converge(cr, 3)
				stored, ok := h.rfs.Lifecycle(bucket)
				if !ok {
					t.Fatalf("spec %d: nothing stored", i)
				}
				if diff := cmp.Diff(expect(t, s.rules), decodeStored(t, stored)); diff != "" {
					t.Errorf("spec %d: the stored rules differ from the spec (-spec +stored):\n%s", i, diff)
				}
			}
		})
	}
}
