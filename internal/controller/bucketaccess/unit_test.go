package bucketaccess

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// A desireCase is a spec's grants and what desire makes of them.
type desireCase struct {
	reason  string
	grants  []v1alpha1.BucketGrant
	buckets []string
	err     string
}

func desireCases() map[string]desireCase {
	return map[string]desireCase{
		"SortedWithoutDuplicates": {
			reason:  "The granted buckets are sorted and listed once, whatever the order and prefixes.",
			grants:  []v1alpha1.BucketGrant{grant("bbb", "ReadOnly", "x/"), grant("aaa", "ReadWrite", ""), grant("bbb", "ReadOnly", "y/")},
			buckets: []string{"aaa", "bbb"},
		},
		"Unresolved": {
			reason: "An entry whose reference is not resolved names no bucket yet.",
			grants: []v1alpha1.BucketGrant{grant("aaa", "ReadOnly", ""), {Access: "ReadOnly", BucketRef: &xpv2.NamespacedReference{Name: "r"}}},
			err:    "spec.forProvider.buckets[1] names no bucket yet",
		},
		"SameBucketAndPrefixTwice": {
			reason: "A reference may resolve to a bucket already named with the same prefix.",
			grants: []v1alpha1.BucketGrant{grant("aaa", "ReadOnly", "p/"), grant("aaa", "ReadWrite", "p/")},
			err:    "buckets[0] and buckets[1] both grant bucket \"aaa\" with prefix \"p/\"",
		},
		"InvalidBucketName": {
			reason: "A bucket name RustFS refuses is refused before anything is read, naming the field.",
			grants: []v1alpha1.BucketGrant{grant("aaa", "ReadOnly", ""), grant("app..data", "ReadOnly", "")},
			err:    `spec.forProvider.buckets[1].bucket "app..data" is not a valid bucket name: it must not contain two adjacent periods. Set spec.forProvider.buckets[1].bucket to a bucket name`,
		},
		"NotAPolicy": {
			reason: "What the generator refuses is reported with the field.",
			grants: []v1alpha1.BucketGrant{grant("aaa", "ReadOnly", "../b")},
			err:    "spec.forProvider.buckets cannot become a session policy",
		},
	}
}

func TestDesire(t *testing.T) {
	cases := desireCases()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := desire(access("ns", "n", "pc", withGrants(tc.grants...)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("%s\ndesire: got error %v, want one containing %q", tc.reason, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s\ndesire: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.buckets, d.buckets); diff != "" {
				t.Errorf("%s\nbuckets: -want, +got:\n%s", tc.reason, diff)
			}
			if len(d.policy.Statements) == 0 {
				t.Errorf("%s\nno session policy", tc.reason)
			}
		})
	}
}

func TestPublishedHolds(t *testing.T) {
	const ak, sk = "XPAAAAAAAAAAAAAAAAAA", "secret-key-0123456789"
	rec := keyRecord{Digest: digest(ak, sk), Rotation: 2}
	data := func(a, s string) map[string][]byte {
		return map[string][]byte{v1alpha1.ConnectionAccessKey: []byte(a), v1alpha1.ConnectionSecretKey: []byte(s)}
	}
	cases := map[string]struct {
		reason string
		p      published
		rec    keyRecord
		want   bool
	}{
		"Holds":          {reason: "The Secret holds the key last chosen.", p: published{exists: true, data: data(ak, sk)}, rec: rec, want: true},
		"NoSecret":       {reason: "A missing Secret holds nothing.", p: published{}, rec: rec},
		"OtherSecretKey": {reason: "A Secret edited by hand does not hold the key.", p: published{exists: true, data: data(ak, sk+"x")}, rec: rec},
		"OtherAccessKey": {reason: "The digest covers the access key.", p: published{exists: true, data: data("XPB", sk)}, rec: rec},
		"NoRecord":       {reason: "Without a record no Secret is trusted.", p: published{exists: true, data: data(ak, sk)}},
		"EmptySecretKey": {reason: "An empty secret key is never held.", p: published{exists: true, data: data(ak, "")}, rec: keyRecord{Digest: digest(ak, "")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.p.holds(ak, tc.rec); got != tc.want {
				t.Errorf("%s\nholds: got %t, want %t", tc.reason, got, tc.want)
			}
		})
	}
	if strings.Contains(rec.Digest, sk) || len(rec.Digest) != 32 {
		t.Errorf("digest %q is not a 128-bit hex digest of the key", rec.Digest)
	}
}

func TestWritable(t *testing.T) {
	own := types.UID("own")
	ctl := func(uid types.UID) []metav1.OwnerReference {
		yes := true
		return []metav1.OwnerReference{{UID: uid, Controller: &yes, Name: "x", Kind: "BucketAccess", APIVersion: "v1"}}
	}
	cases := map[string]struct {
		s    corev1.Secret
		want bool
	}{
		"Controlled":           {s: corev1.Secret{ObjectMeta: metav1.ObjectMeta{OwnerReferences: ctl(own)}}, want: true},
		"ControlledByOther":    {s: corev1.Secret{ObjectMeta: metav1.ObjectMeta{OwnerReferences: ctl("other")}}},
		"FreeConnectionSecret": {s: corev1.Secret{Type: resource.SecretTypeConnection}, want: true},
		"FreeOpaqueSecret":     {s: corev1.Secret{Type: corev1.SecretTypeOpaque}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := writable(&tc.s, own); got != tc.want {
				t.Errorf("writable: got %t, want %t", got, tc.want)
			}
		})
	}
}

func TestScrub(t *testing.T) {
	cases := map[string]struct {
		err  error
		want string
	}{
		"Nil":          {},
		"WithSecret":   {err: errors.New("echo: sk-123 and sk-123"), want: "echo: REDACTED and REDACTED"},
		"WithoutAny":   {err: errors.New("plain"), want: "plain"},
		"EmptySecrets": {err: errors.New("plain"), want: "plain"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := scrub(tc.err, "sk-123", "")
			if (got == nil) != (tc.err == nil) || got != nil && got.Error() != tc.want {
				t.Errorf("scrub: got %v, want %q", got, tc.want)
			}
		})
	}
}

func TestDetails(t *testing.T) {
	e := &external{conn: &connection.Connection{Config: rustfs.Config{Endpoint: "http://rustfs:9000"}}}
	cases := map[string]struct {
		sk   string
		want map[string]string
	}{
		"WithoutSecretKey": {want: map[string]string{"endpoint": "http://rustfs:9000", "region": "us-east-1", "accessKey": "AK", "buckets": "a,b"}},
		"WithSecretKey": {sk: "SK", want: map[string]string{"endpoint": "http://rustfs:9000", "region": "us-east-1", "accessKey": "AK",
			"buckets": "a,b", "secretKey": "SK"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := map[string]string{}
			for k, v := range e.details("AK", tc.sk, []string{"a", "b"}) {
				got[k] = string(v)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("details: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestPlanDiff(t *testing.T) {
	cases := map[string]struct {
		p    plan
		want []string
	}{
		"Empty":  {},
		"Policy": {p: plan{policy: true}, want: []string{"the session policy differs from spec.forProvider.buckets"}},
		"All":    {p: plan{parent: true, policy: true, rotate: true}, want: []string{"parent user", "session policy", "secret key"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.p.diff()
			if (got == "") != (len(tc.want) == 0) || tc.p.empty() != (len(tc.want) == 0) {
				t.Errorf("diff %q, empty %t", got, tc.p.empty())
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("diff %q does not mention %q", got, w)
				}
			}
		})
	}
}

func TestDescription(t *testing.T) {
	long := access("ns", strings.Repeat("n", 253), "pc")
	if got := description(long); len(got) != maxDescription {
		t.Errorf("description of a long name: %d bytes, want %d", len(got), maxDescription)
	}
	if got := description(access("ns", "app", "pc")); got != "provider-rustfs BucketAccess ns/app" {
		t.Errorf("description: %q", got)
	}
}
