package bucketlifecycle

import (
	"fmt"
	"math/rand/v2"
	"strings"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A generator of valid lifecycle specs that, over a run, sets every field of
// every rule element: the filter in each of its forms (prefix, one tag, the
// size bounds, and And with a prefix, tags and both bounds), transitions by
// days (0 included) and by date, noncurrent transitions with and without
// newerNoncurrentVersions, every form of expiration including the
// RustFS/MinIO extension expiredObjectAllVersions, noncurrent expiration,
// abortIncompleteMultipartUpload and the delMarkerExpiration extension; each
// transition names its tier by storageClass, tierRef or tierSelector. It
// keeps to what the CRD and RustFS accept (docs/rustfs-wire.md §8.2), so every generated
// spec must be stored whole.

// modelTiers are the tiers a generated transition may name.
var modelTiers = []string{"COLD", "WARM", "GLACIER-1"}

type ruleGen struct {
	r    *rand.Rand
	seen map[string]bool // field paths set so far
}

func newRuleGen(seed uint64) *ruleGen {
	return &ruleGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), seen: map[string]bool{}} // test data
}

func (g *ruleGen) mark(paths ...string) {
	for _, p := range paths {
		g.seen[p] = true
	}
}

func (g *ruleGen) i32(lo, hi int) *int32 { v := int32(lo + g.r.IntN(hi-lo+1)); return &v }
func (g *ruleGen) i64(lo, hi int) *int64 { v := int64(lo + g.r.IntN(hi-lo+1)); return &v }
func (g *ruleGen) bit() bool             { return g.r.IntN(2) == 0 }
func (g *ruleGen) tier() string          { return modelTiers[g.r.IntN(len(modelTiers))] }

// date returns a midnight date in either accepted form.
func (g *ruleGen) date() string {
	d := fmt.Sprintf("20%02d-%02d-%02d", 30+g.r.IntN(10), 1+g.r.IntN(12), 1+g.r.IntN(28))
	if g.bit() {
		return d + "T00:00:00Z"
	}
	return d
}

// rules returns one to four rules with distinct IDs.
func (g *ruleGen) rules() []v1alpha1.LifecycleRule {
	out := make([]v1alpha1.LifecycleRule, 1+g.r.IntN(4))
	for i := range out {
		out[i] = g.rule(fmt.Sprintf("rule-%c%d", 'a'+rune(g.r.IntN(26)), i))
	}
	return out
}

func (g *ruleGen) rule(id string) v1alpha1.LifecycleRule {
	r := v1alpha1.LifecycleRule{ID: id}
	g.mark("id")
	switch g.r.IntN(3) {
	case 0:
		r.Status = v1alpha1.RuleEnabled
		g.mark("status.Enabled")
	case 1:
		r.Status = v1alpha1.RuleDisabled
		g.mark("status.Disabled")
	}
	r.Filter = g.filter()
	tagged := r.Filter != nil && (r.Filter.Tag != nil || r.Filter.And != nil && len(r.Filter.And.Tags) > 0)
	for !g.actions(&r, tagged) {
	}
	return r
}

// filter returns no filter or one of its forms.
func (g *ruleGen) filter() *v1alpha1.LifecycleFilter {
	switch g.r.IntN(7) {
	case 0:
		return nil
	case 1:
		g.mark("filter.empty")
		return &v1alpha1.LifecycleFilter{}
	case 2:
		g.mark("filter.prefix")
		return &v1alpha1.LifecycleFilter{Prefix: g.word("logs/")}
	case 3:
		g.mark("filter.tag.key", "filter.tag.value")
		return &v1alpha1.LifecycleFilter{Tag: &v1alpha1.LifecycleTag{Key: g.word("k"), Value: g.word("v")}}
	case 4:
		g.mark("filter.objectSizeGreaterThan")
		return &v1alpha1.LifecycleFilter{ObjectSizeGreaterThan: g.i64(0, 1<<30)}
	case 5:
		g.mark("filter.objectSizeLessThan")
		return &v1alpha1.LifecycleFilter{ObjectSizeLessThan: g.i64(1, 1<<30)}
	}
	return &v1alpha1.LifecycleFilter{And: g.and()}
}

func (g *ruleGen) and() *v1alpha1.LifecycleFilterAnd {
	a := &v1alpha1.LifecycleFilterAnd{}
	if g.bit() {
		a.Prefix = g.word("data/")
		g.mark("filter.and.prefix")
	}
	for i := range g.r.IntN(3) {
		a.Tags = append(a.Tags, v1alpha1.LifecycleTag{Key: fmt.Sprintf("k%d", i), Value: g.word("v")})
		g.mark("filter.and.tags.key", "filter.and.tags.value")
	}
	if g.bit() {
		a.ObjectSizeGreaterThan = g.i64(0, 1<<20)
		g.mark("filter.and.objectSizeGreaterThan")
	}
	if g.bit() {
		lo := int64(1)
		if a.ObjectSizeGreaterThan != nil {
			lo = *a.ObjectSizeGreaterThan + 1
		}
		a.ObjectSizeLessThan = g.i64(int(lo), int(lo)+1<<20)
		g.mark("filter.and.objectSizeLessThan")
	}
	return a
}

// word returns prefix plus random letters.
func (g *ruleGen) word(prefix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for range 1 + g.r.IntN(6) {
		b.WriteByte(byte('a' + g.r.IntN(26)))
	}
	return b.String()
}

// actions adds a random set of actions and reports whether there is one.
// A rule with a tag filter gets no delete-marker action.
func (g *ruleGen) actions(r *v1alpha1.LifecycleRule, tagged bool) bool {
	for range g.r.IntN(3) {
		r.Transitions = append(r.Transitions, g.transition())
	}
	for range g.r.IntN(3) {
		r.NoncurrentVersionTransitions = append(r.NoncurrentVersionTransitions, g.noncurrentTransition())
	}
	if g.bit() {
		r.Expiration = g.expiration(tagged)
	}
	if g.bit() {
		r.NoncurrentVersionExpiration = &v1alpha1.NoncurrentVersionExpiration{NoncurrentDays: *g.i32(1, 365)}
		g.mark("noncurrentVersionExpiration.noncurrentDays")
		if g.bit() {
			r.NoncurrentVersionExpiration.NewerNoncurrentVersions = g.i32(0, 10)
			g.mark("noncurrentVersionExpiration.newerNoncurrentVersions")
		}
	}
	if g.bit() {
		r.AbortIncompleteMultipartUpload = &v1alpha1.AbortIncompleteMultipartUpload{DaysAfterInitiation: *g.i32(1, 30)}
		g.mark("abortIncompleteMultipartUpload.daysAfterInitiation")
	}
	if !tagged && g.bit() {
		r.DelMarkerExpiration = &v1alpha1.DelMarkerExpiration{Days: *g.i32(1, 90)}
		g.mark("delMarkerExpiration.days")
	}
	return len(r.Transitions) > 0 || len(r.NoncurrentVersionTransitions) > 0 || r.Expiration != nil ||
		r.NoncurrentVersionExpiration != nil || r.AbortIncompleteMultipartUpload != nil || r.DelMarkerExpiration != nil
}

// A tierName is how a generated transition names its tier: a storage
// class, or a reference or a selector to the model Tier of that tier
// (modelTierObject).
type tierName struct {
	class    string
	ref      *xpv2.NamespacedReference
	selector *xpv2.NamespacedSelector
}

// tierName names a model tier one of the three ways, marking field+"."
// and the way.
func (g *ruleGen) tierName(field string) tierName {
	tier := g.tier()
	switch g.r.IntN(3) {
	case 0:
		g.mark(field + ".tierRef")
		return tierName{ref: &xpv2.NamespacedReference{Name: modelTierObject(tier)}}
	case 1:
		g.mark(field + ".tierSelector")
		return tierName{selector: &xpv2.NamespacedSelector{MatchLabels: map[string]string{modelTierLabel: modelTierObject(tier)}}}
	}
	g.mark(field + ".storageClass")
	return tierName{class: tier}
}

// modelTierLabel labels each model Tier with its object name, for
// selectors.
const modelTierLabel = "model-tier"

// modelTierObject is the name of the Tier object of a model tier.
func modelTierObject(tier string) string { return strings.ToLower(tier) }

func (g *ruleGen) transition() v1alpha1.Transition {
	n := g.tierName("transitions")
	t := v1alpha1.Transition{StorageClass: n.class, TierRef: n.ref, TierSelector: n.selector}
	if g.bit() {
		t.Days = g.i32(1, 365)
		g.mark("transitions.days")
		if g.r.IntN(4) == 0 { // 0 is valid for a transition and easily lost as "unset"
			*t.Days = 0
			g.mark("transitions.days.0")
		}
	} else {
		t.Date = g.date()
		g.mark("transitions.date")
	}
	return t
}

func (g *ruleGen) noncurrentTransition() v1alpha1.NoncurrentVersionTransition {
	n := g.tierName("noncurrentVersionTransitions")
	t := v1alpha1.NoncurrentVersionTransition{StorageClass: n.class, TierRef: n.ref, TierSelector: n.selector, NoncurrentDays: *g.i32(0, 365)}
	g.mark("noncurrentVersionTransitions.noncurrentDays")
	if g.bit() {
		t.NewerNoncurrentVersions = g.i32(0, 10)
		g.mark("noncurrentVersionTransitions.newerNoncurrentVersions")
	}
	return t
}

// expiration returns one of the accepted forms: days, days with
// expiredObjectAllVersions, a date, or expiredObjectDeleteMarker alone
// (not with a tag filter when true).
func (g *ruleGen) expiration(tagged bool) *v1alpha1.LifecycleExpiration {
	switch g.r.IntN(4) {
	case 0:
		g.mark("expiration.days")
		return &v1alpha1.LifecycleExpiration{Days: g.i32(1, 3650)}
	case 1:
		v := g.bit()
		g.mark("expiration.days", fmt.Sprintf("expiration.expiredObjectAllVersions.%t", v))
		return &v1alpha1.LifecycleExpiration{Days: g.i32(1, 3650), ExpiredObjectAllVersions: &v}
	case 2:
		g.mark("expiration.date")
		return &v1alpha1.LifecycleExpiration{Date: g.date()}
	}
	v := !tagged && g.bit()
	g.mark(fmt.Sprintf("expiration.expiredObjectDeleteMarker.%t", v))
	return &v1alpha1.LifecycleExpiration{ExpiredObjectDeleteMarker: &v}
}

// A modelSpec is a generated BucketLifecycle's rules, and whether it names
// its bucket by bucketSelector (to the model Bucket object) or by bucket.
type modelSpec struct {
	rules    []v1alpha1.LifecycleRule
	selected bool
}

func (g *ruleGen) spec() modelSpec {
	s := modelSpec{rules: g.rules(), selected: g.bit()}
	if s.selected {
		g.mark("bucketSelector")
	} else {
		g.mark("bucket")
	}
	return s
}

// modelFields are the field paths a run must set.
var modelFields = []string{
	"bucket", "bucketSelector", "id", "status.Enabled", "status.Disabled",
	"filter.empty", "filter.prefix", "filter.tag.key", "filter.tag.value", "filter.objectSizeGreaterThan",
	"filter.objectSizeLessThan", "filter.and.prefix", "filter.and.tags.key", "filter.and.tags.value",
	"filter.and.objectSizeGreaterThan", "filter.and.objectSizeLessThan",
	"transitions.storageClass", "transitions.tierRef", "transitions.tierSelector",
	"transitions.days", "transitions.days.0", "transitions.date",
	"noncurrentVersionTransitions.storageClass", "noncurrentVersionTransitions.tierRef",
	"noncurrentVersionTransitions.tierSelector", "noncurrentVersionTransitions.noncurrentDays",
	"noncurrentVersionTransitions.newerNoncurrentVersions",
	"expiration.days", "expiration.date", "expiration.expiredObjectAllVersions.true",
	"expiration.expiredObjectAllVersions.false", "expiration.expiredObjectDeleteMarker.true",
	"expiration.expiredObjectDeleteMarker.false",
	"noncurrentVersionExpiration.noncurrentDays", "noncurrentVersionExpiration.newerNoncurrentVersions",
	"abortIncompleteMultipartUpload.daysAfterInitiation", "delMarkerExpiration.days",
}
