package bucket

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Observe of a Bucket being deleted: only the holder of a bucket, with
// Delete in its policies, gets to a request; a Bucket of another namespace
// naming the same bucket is refused before any, without naming the holder's
// namespace; the holder of a bucket that is not empty keeps it.
func TestObserveDeleted(t *testing.T) {
	cases := map[string]struct {
		reason     string
		other      bool // a Bucket of another namespace, which never held the bucket
		policies   xpv2.ManagementPolicies
		seed       bool // the bucket holds an object
		wantReason xpv2.ConditionReason
		wantExists bool
		wantNoReq  bool
	}{
		"Retain":      {reason: "Without Delete the bucket is reported gone, before any request.", policies: nil, wantNoReq: true},
		"OtherHolder": {reason: "A Bucket that never held the bucket is refused before any request.", other: true, policies: deletable, wantReason: v1alpha1.ReasonNotBucketHolder, wantNoReq: true},
		"HolderFull":  {reason: "The holder keeps a bucket that is not empty.", policies: deletable, seed: true, wantReason: v1alpha1.ReasonBucketNotEmpty},
		"HolderEmpty": {reason: "The holder's empty bucket is reported to exist, for Delete.", policies: deletable, wantExists: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, "")
			holder := h.converge(h.store(bucket()), 3)
			if tc.seed {
				h.rfs.PutObject(bucketName, "k", []byte("v"))
			}
			cr := deleting(holder, tc.other, tc.policies)
			e, err := h.connector().Connect(ctx(t), cr)
			if err != nil {
				t.Fatal(err)
			}
			before := len(h.rfs.Requests())
			o, err := e.Observe(ctx(t), cr)
			if got := cr.GetCondition(xpv2.TypeReady).Reason; tc.wantReason != "" && (got != tc.wantReason || err == nil) {
				t.Errorf("%s\nReady reason: want %s and an error, got %s and %v", tc.reason, tc.wantReason, got, err)
			}
			if tc.wantReason == "" && err != nil {
				t.Errorf("%s\nObserve: %v", tc.reason, err)
			}
			if o.ResourceExists != tc.wantExists {
				t.Errorf("%s\nResourceExists: want %t, got %t", tc.reason, tc.wantExists, o.ResourceExists)
			}
			if n := len(h.rfs.Requests()) - before; tc.wantNoReq && n != 0 {
				t.Errorf("%s\nrequests to RustFS: want none, got %d", tc.reason, n)
			}
			if msg := cr.GetCondition(xpv2.TypeReady).Message; strings.Contains(msg, ns) && tc.other {
				t.Errorf("%s\nthe refusal names the holder's namespace: %q", tc.reason, msg)
			}
		})
	}
}

// deleting returns a copy of holder being deleted under policies (Observe,
// Create and Update when nil), or, when other, a Bucket of another
// namespace naming the same bucket.
func deleting(holder *v1alpha1.Bucket, other bool, policies xpv2.ManagementPolicies) *v1alpha1.Bucket {
	cr := holder.DeepCopy()
	if other {
		cr = bucket()
		cr.Namespace, cr.UID = "team-b", types.UID("uid-b")
	}
	cr.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate}
	if policies != nil {
		cr.Spec.ManagementPolicies = policies
	}
	now := metav1.Now()
	cr.SetDeletionTimestamp(&now)
	return cr
}
