package main

import (
	"math/rand"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A remote is where a Tier puts transitioned objects. RustFS trims '/' from
// prefixes, so prefix is kept trimmed.
type remote struct {
	endpoint, bucket, prefix string
}

func remoteOf(u *unstructured.Unstructured) remote {
	fp := []string{"spec", "forProvider"}
	r := remote{}
	r.endpoint, _, _ = unstructured.NestedString(u.Object, append(fp, "endpoint")...)
	r.bucket, _, _ = unstructured.NestedString(u.Object, append(fp, "bucket")...)
	p, _, _ := unstructured.NestedString(u.Object, append(fp, "prefix")...)
	r.prefix = strings.Trim(p, "/")
	return r
}

// nested reports whether a and b share a bucket and one prefix holds the
// other: an add's emptiness check then sees the other tier's objects.
func nested(a, b remote) bool {
	if a.bucket != b.bucket {
		return false
	}
	in := func(outer, inner string) bool {
		return outer == "" || inner == outer || strings.HasPrefix(inner, outer+"/")
	}
	return in(a.prefix, b.prefix) || in(b.prefix, a.prefix)
}

func tierExamples(t *testing.T) []*unstructured.Unstructured {
	t.Helper()
	docs, err := load("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	var tiers []*unstructured.Unstructured
	for _, d := range docs {
		if d.GetKind() == v1alpha1.TierKind {
			tiers = append(tiers, d)
		}
	}
	if len(tiers) < 2 {
		t.Fatalf("want the Tier examples of examples/tier, got %d", len(tiers))
	}
	return tiers
}

// TestTierExamplesApart fails when two Tier examples share a remote bucket
// and prefix, or one's prefix holds the other's: as written (whatever their
// endpoints, since a reader may point two of them at one account), and as
// the demo applies them (one endpoint and bucket for all).
func TestTierExamplesApart(t *testing.T) {
	written := tierExamples(t)
	checkApart(t, "as written", written, func(r remote) remote { r.endpoint = ""; return r })
	p := makePlan(tierExamples(t), demoTarget)
	var applied []*unstructured.Unstructured
	for _, o := range p.objects {
		if o.GetKind() == v1alpha1.TierKind {
			applied = append(applied, o)
		}
	}
	if len(applied) != len(written) {
		t.Fatalf("the demo applies %d of %d Tier examples", len(applied), len(written))
	}
	checkApart(t, "as the demo applies them", applied, func(r remote) remote { return r })
}

func checkApart(t *testing.T, how string, tiers []*unstructured.Unstructured, key func(remote) remote) {
	t.Helper()
	for i, a := range tiers {
		for _, b := range tiers[i+1:] {
			ra, rb := key(remoteOf(a)), key(remoteOf(b))
			if ra.endpoint == rb.endpoint && nested(ra, rb) {
				t.Errorf("%s: Tier %s (bucket %s, prefix %q) and Tier %s (bucket %s, prefix %q) share a remote prefix; give each example its own",
					how, a.GetName(), ra.bucket, ra.prefix, b.GetName(), rb.bucket, rb.prefix)
			}
		}
	}
}

// TestRemotePrefixApart checks the property the demo's rewrite promises,
// over generated Tiers: two Tiers with different namespace/name never get
// prefixes that are equal or nested, whatever their buckets and prefixes.
func TestRemotePrefixApart(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	label := func() string { return []string{"a", "b", "ab", "a-b", "default", "team-a"}[rng.Intn(6)] }
	path := func() string {
		return []string{"", "/", "a", "a/", "/a/", "a/b", "ab/", "b", "default/a", "a//b/"}[rng.Intn(10)]
	}
	for i := range 20000 {
		ns1, n1, ns2, n2 := label(), label(), label(), label()
		if ns1 == ns2 && n1 == n2 {
			continue
		}
		a := remote{bucket: "tiers", prefix: strings.Trim(remotePrefix(ns1, n1, path(), path()), "/")}
		b := remote{bucket: "tiers", prefix: strings.Trim(remotePrefix(ns2, n2, path(), path()), "/")}
		if nested(a, b) {
			t.Fatalf("case %d: %s/%s gets %q and %s/%s gets %q: nested", i, ns1, n1, a.prefix, ns2, n2, b.prefix)
		}
	}
}

func TestNested(t *testing.T) {
	cases := map[string]struct {
		a, b remote
		want bool
	}{
		"SamePrefix":      {remote{bucket: "x", prefix: "p"}, remote{bucket: "x", prefix: "p"}, true},
		"Inside":          {remote{bucket: "x", prefix: "p"}, remote{bucket: "x", prefix: "p/q"}, true},
		"WholeBucket":     {remote{bucket: "x"}, remote{bucket: "x", prefix: "q"}, true},
		"SiblingPrefix":   {remote{bucket: "x", prefix: "p"}, remote{bucket: "x", prefix: "pq"}, false},
		"OtherBucket":     {remote{bucket: "x", prefix: "p"}, remote{bucket: "y", prefix: "p"}, false},
		"DifferentPrefix": {remote{bucket: "x", prefix: "p/a"}, remote{bucket: "x", prefix: "p/b"}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := nested(tc.a, tc.b); got != tc.want {
				t.Errorf("nested(%+v, %+v): want %v, got %v", tc.a, tc.b, tc.want, got)
			}
		})
	}
}
