package custody

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func bucketIn(ns, name, uid string) *v1alpha1.Bucket {
	return &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(uid)}}
}

func record(holder *v1alpha1.Bucket, phase v1alpha1.CustodyPhase, releasedFor string) *v1alpha1.CustodyRecord {
	r := &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: "bucket-x"}, Spec: v1alpha1.CustodyRecordSpec{
		Identity: "deployment:1", Kind: v1alpha1.CustodyBucket, Object: "data", Phase: phase, ReleasedFor: releasedFor}}
	if holder != nil {
		r.Spec.Holder = HolderOf(holder)
	}
	return r
}

// want is what Next decides.
type want struct {
	holder  string // UID of the holder written; "" when nothing is written
	phase   v1alpha1.CustodyPhase
	reason  string
	release bool
}

type nextCase struct {
	reason string
	r      *v1alpha1.CustodyRecord
	self   *v1alpha1.Bucket
	c      Claim
	gone   bool
	want   want
}

func claimOf(exists bool, adoption v1alpha1.AdoptionPolicy) Claim {
	return Claim{Kind: v1alpha1.CustodyBucket, Object: "data", Exists: exists, Adoption: adoption, Duplicate: v1alpha1.ReasonDuplicateBucket}
}

func TestNext(t *testing.T) {
	for name, tc := range nextCases() {
		t.Run(name, func(t *testing.T) {
			next, refusal, release := Next(tc.r, tc.self, tc.c, tc.gone)
			got := want{release: release}
			if next != nil {
				got.holder, got.phase = string(next.Spec.Holder.UID), next.Spec.Phase
			}
			if refusal != nil {
				got.reason = string(refusal.Reason)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nNext(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

var a1, a2, b1 = bucketIn("a", "one", "a1"), bucketIn("a", "two", "a2"), bucketIn("b", "one", "b1")

func nextCases() map[string]nextCase {
	cases := holderCases()
	maps.Copy(cases, claimantCases())
	return cases
}

// holderCases are the claims of the holder itself.
func holderCases() map[string]nextCase {
	claim := claimOf
	return map[string]nextCase{
		"HolderObjectAbsent": {
			reason: "The holder of a record whose object is absent changes nothing.",
			r:      record(a1, "", ""), self: a1, c: claim(false, v1alpha1.AdoptionAutomatic),
		},
		"CreatingSettlesAsCreated": {
			reason: "A read that finds the object settles Creating as Created, even under adoption Never (a lost answer).",
			r:      record(a1, v1alpha1.PhaseCreating, ""), self: a1, c: claim(true, v1alpha1.AdoptionNever),
			want: want{holder: "a1", phase: v1alpha1.PhaseCreated},
		},
		"FoundWithoutCreatingIsAdopted": {
			reason: "An object found with no Creating of the holder's own is Adopted under Automatic.",
			r:      record(a1, "", ""), self: a1, c: claim(true, v1alpha1.AdoptionAutomatic),
			want: want{holder: "a1", phase: v1alpha1.PhaseAdopted},
		},
		"FoundWithoutCreatingUnderNever": {
			reason: "Under Never, the claimant releases the record it made and reports AdoptionNotAllowed.",
			r:      record(a1, "", ""), self: a1, c: claim(true, v1alpha1.AdoptionNever),
			want: want{reason: string(v1alpha1.ReasonAdoptionNotAllowed), release: true},
		},
	}
}

// claimantCases are the claims of resources that do not hold the record.
func claimantCases() map[string]nextCase {
	claim := claimOf
	return map[string]nextCase{
		"HeldByAnotherNamespace": {
			reason: "A held record is never taken over, whatever the claimant.",
			r:      record(a1, v1alpha1.PhaseCreated, ""), self: b1, c: claim(true, v1alpha1.AdoptionAutomatic),
			want: want{reason: string(v1alpha1.ReasonDuplicateBucket)},
		},
		"HeldByAnotherNamespaceGoneFlagIgnored": {
			reason: "gone is only ever set for a holder of the claimant's namespace; a record held elsewhere stays.",
			r:      record(a1, v1alpha1.PhaseCreated, ""), self: a2, c: claim(true, v1alpha1.AdoptionAutomatic),
			want: want{reason: string(v1alpha1.ReasonDuplicateBucket)},
		},
		"HolderGoneInNamespace": {
			reason: "A resource of the holder's namespace takes a record whose holder is gone, keeping its phase.",
			r:      record(a1, v1alpha1.PhaseCreated, ""), self: a2, c: claim(true, v1alpha1.AdoptionNever), gone: true,
			want: want{holder: "a2", phase: v1alpha1.PhaseCreated},
		},
		"ReleasedForOwnNamespace": {
			reason: "A record Released for the claimant's namespace is taken.",
			r:      record(nil, v1alpha1.PhaseReleased, "a"), self: a2, c: claim(true, v1alpha1.AdoptionAutomatic),
			want: want{holder: "a2", phase: v1alpha1.PhaseAdopted},
		},
		"ReleasedForAnotherNamespace": {
			reason: "A record Released for another namespace is refused.",
			r:      record(nil, v1alpha1.PhaseReleased, "a"), self: b1, c: claim(true, v1alpha1.AdoptionAutomatic),
			want: want{reason: string(v1alpha1.ReasonDuplicateBucket)},
		},
		"LongerNamespaceUnderPrefix": {
			reason: "Under NamespacePrefix a name of a longer namespace's slice passes to it from the shorter one.",
			r:      record(bucketIn("a", "one", "a1"), v1alpha1.PhaseCreated, ""), self: bucketIn("a-late", "x", "x1"),
			c: Claim{Kind: v1alpha1.CustodyBucket, Object: "data", Exists: true, Prefix: true}, want: want{holder: "x1", phase: v1alpha1.PhaseCreated},
		},
		"Disputed": {
			reason: "A Disputed record is refused to every namespace.",
			r:      record(nil, v1alpha1.PhaseDisputed, ""), self: a1, c: claim(true, v1alpha1.AdoptionAutomatic),
			want: want{reason: string(v1alpha1.ReasonCustodyDisputed)},
		},
	}
}

func newCustodian(t *testing.T, objs ...*v1alpha1.Bucket) Custodian {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	b := fake.NewClientBuilder().WithScheme(s).WithIndex(&v1alpha1.Bucket{}, IndexObject, IndexByExternalName)
	for _, o := range objs {
		b = b.WithObjects(o)
	}
	c := b.Build()
	return Custodian{Store: Store{Kube: c, Reader: c}}
}

func TestHoldConcurrentClaims(t *testing.T) {
	cases := map[string]struct {
		reason   string
		claimers int
	}{
		"Two":   {reason: "Two namespaces claiming one new bucket give one holder.", claimers: 2},
		"Fifty": {reason: "Fifty claims from two namespaces give one holder.", claimers: 50},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			claimers := make([]*v1alpha1.Bucket, tc.claimers)
			for i := range claimers {
				claimers[i] = bucketIn([]string{"a", "b"}[i%2], fmt.Sprintf("b%d", i), fmt.Sprintf("uid%d", i))
			}
			cu := newCustodian(t, claimers...)
			var mu sync.Mutex
			held := map[types.UID]bool{}
			var wg sync.WaitGroup
			for _, self := range claimers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, _, err := cu.Hold(context.Background(), self, "deployment:1", Claim{Kind: v1alpha1.CustodyBucket, Object: "data"})
					if err != nil {
						t.Errorf("Hold: %v", err)
					}
					if r != nil {
						mu.Lock()
						held[self.GetUID()] = true
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if len(held) != 1 {
				t.Errorf("%s\nHold(...): %d holders, want 1", tc.reason, len(held))
			}
		})
	}
}

func TestHoldLifecycle(t *testing.T) {
	a1, b1 := bucketIn("a", "one", "a1"), bucketIn("b", "one", "b1")
	ctx := context.Background()
	cu := newCustodian(t, a1, b1)
	c := Claim{Kind: v1alpha1.CustodyBucket, Object: "data", Adoption: v1alpha1.AdoptionNever, Duplicate: v1alpha1.ReasonDuplicateBucket}
	r, refusal, err := cu.Hold(ctx, a1, "deployment:1", c)
	if err != nil || refusal != nil || !Holds(r, a1) {
		t.Fatalf("a claims a new bucket: record %v, refusal %v, error %v; want a1 to hold it", r, refusal, err)
	}
	if r, err = cu.Mark(ctx, r, a1, v1alpha1.PhaseCreating); err != nil {
		t.Fatalf("Mark(Creating): %v", err)
	}
	if _, err := cu.Mark(ctx, r, b1, v1alpha1.PhaseCreated); err == nil {
		t.Errorf("Mark by a non-holder: got nil error, want one")
	}
	c.Exists = true
	if got, refusal, err := cu.Hold(ctx, a1, "deployment:1", c); err != nil || refusal != nil || got.Spec.Phase != v1alpha1.PhaseCreated {
		t.Errorf("a reads its object after a lost answer: record %v, refusal %v, error %v; want Created", got, refusal, err)
	}
	if _, refusal, err := cu.Hold(ctx, b1, "deployment:1", c); err != nil || refusal == nil || refusal.Reason != v1alpha1.ReasonDuplicateBucket {
		t.Errorf("b claims a's bucket: refusal %v, error %v; want DuplicateBucket", refusal, err)
	}
	held, recorded, err := cu.HeldIn(ctx, "deployment:1", v1alpha1.CustodyBucket, "data", "a")
	if err != nil || !held || !recorded {
		t.Errorf("HeldIn(a): held %t, recorded %t, error %v; want true, true, nil", held, recorded, err)
	}
	stale := r.DeepCopy()
	stale.Spec.Holder = HolderOf(b1)
	if err := cu.Update(ctx, stale); err == nil {
		t.Errorf("Update with a stale resourceVersion: got nil error, want a conflict")
	}
	if _, err := cu.Mark(ctx, r, a1, v1alpha1.PhaseReleased); !kerrors.IsConflict(errors.Cause(err)) {
		t.Errorf("Mark of a record changed since it was read: got error %v, want a conflict", err)
	}
	if got, err := cu.Get(ctx, r.GetName()); err != nil || got.Spec.Phase != v1alpha1.PhaseCreated {
		t.Errorf("after a Mark that conflicted: record %v, error %v; want it left Created", got, err)
	}
}
