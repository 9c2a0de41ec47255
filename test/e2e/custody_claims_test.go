package e2e

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Fifty Buckets of two namespaces claiming one new bucket name at once
// leave exactly one holder, every time: a claim is a create of the record
// that the API server grants to one claimant only (design rule 3).
func TestCustodySimultaneousClaimsGiveOneHolder(t *testing.T) {
	testenv.Skip(t)
	const perNamespace, rounds = 25, 10
	var claimants []*v1alpha1.Bucket
	for _, ns := range []string{newNamespace(t), newNamespace(t)} {
		for i := range perNamespace {
			b := bucket(ns, fmt.Sprintf("claimant-%d", i), withBucketProviderConfig("none"))
			if err := env.Client.Create(t.Context(), b); err != nil {
				t.Fatal(err)
			}
			claimants = append(claimants, b)
		}
	}
	cu := custody.Custodian{Store: custody.Store{Kube: env.Client, Reader: env.Client}, Now: time.Now}
	identity := "e2e-claims-" + claimants[0].GetNamespace()

	for round := range rounds {
		c := custody.Claim{Kind: v1alpha1.CustodyBucket, Object: fmt.Sprintf("new-%d", round), Adoption: v1alpha1.AdoptionAutomatic,
			Noun: "the bucket", Field: "the external name", Duplicate: v1alpha1.ReasonDuplicateBucket}
		held := make([]*v1alpha1.CustodyRecord, len(claimants))
		refused := make([]*custody.Refusal, len(claimants))
		errs := make([]error, len(claimants))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, b := range claimants {
			wg.Go(func() {
				<-start
				held[i], refused[i], errs[i] = cu.Hold(t.Context(), b, identity, c)
			})
		}
		close(start)
		wg.Wait()

		checkRound(t, cu, round, identity, c, claimants, held, refused, errs)
	}
}

// checkRound fails the test unless exactly one of claimants was told it
// holds c's record, the record names it, and every other claim was refused
// as a duplicate.
func checkRound(t *testing.T, cu custody.Custodian, round int, identity string, c custody.Claim, claimants []*v1alpha1.Bucket,
	held []*v1alpha1.CustodyRecord, refused []*custody.Refusal, errs []error) {
	t.Helper()
	var holders []string
	for i, b := range claimants {
		who := b.GetNamespace() + "/" + b.GetName()
		switch {
		case errs[i] != nil:
			t.Errorf("round %d: claim of %s: %v", round, who, errs[i])
		case refused[i] != nil && refused[i].Reason != v1alpha1.ReasonDuplicateBucket:
			t.Errorf("round %d: claim of %s refused with %s, want %s", round, who, refused[i].Reason, v1alpha1.ReasonDuplicateBucket)
		case refused[i] == nil && held[i] != nil:
			if !custody.Holds(held[i], b) {
				t.Errorf("round %d: claim of %s returned a record it does not hold", round, who)
			}
			holders = append(holders, who)
		}
	}
	if len(holders) != 1 {
		t.Fatalf("round %d: claimants told they hold %s: want exactly one, got %v", round, c.Object, holders)
	}
	r, err := cu.Get(t.Context(), v1alpha1.CustodyRecordName(identity, c.Kind, c.Object))
	if err != nil || r == nil || r.Spec.Holder == nil {
		t.Fatalf("round %d: record of %s: %v, %v", round, c.Object, r, err)
	}
	if got := r.Spec.Holder.Namespace + "/" + r.Spec.Holder.Name; got != holders[0] {
		t.Errorf("round %d: record of %s names %s, but %s was told it holds it", round, c.Object, got, holders[0])
	}
}
