package bucketlifecycle

import (
	"maps"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// notResolution filters out the updates the managed reconciler makes when
// it resolves references: it writes the resolved bucket and storage classes
// into the spec, a new generation, and goes on in the same reconcile to put
// the rules. Reconciling again because of that write would only repeat the
// work. Every other update passes on to the other predicates.
func notResolution() predicate.Predicate {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		o, okOld := e.ObjectOld.(*v1alpha1.BucketLifecycle)
		n, okNew := e.ObjectNew.(*v1alpha1.BucketLifecycle)
		return !okOld || !okNew || !onlyResolved(o, n)
	}}
}

// onlyResolved reports whether the only change from o to n is references
// resolved: spec.forProvider.bucket, or a transition's storageClass, that
// was empty in o while a reference or selector named it, is filled in n
// (and, for a selector, the reference it selected).
func onlyResolved(o, n *v1alpha1.BucketLifecycle) bool {
	if !maps.Equal(o.GetLabels(), n.GetLabels()) || !maps.Equal(o.GetAnnotations(), n.GetAnnotations()) ||
		equality.Semantic.DeepEqual(o.Spec, n.Spec) {
		return false
	}
	s := n.Spec.DeepCopy()
	unresolve(&s.ForProvider, o.Spec.ForProvider)
	return equality.Semantic.DeepEqual(o.Spec, *s)
}

// unresolve empties in p every value that resolution may have filled since
// was: those that were empty in was while a reference or selector named
// them.
func unresolve(p *v1alpha1.BucketLifecycleParameters, was v1alpha1.BucketLifecycleParameters) {
	unfill(&p.Bucket, &p.BucketRef, was.Bucket, was.BucketRef, was.BucketSelector)
	if len(p.Rules) != len(was.Rules) {
		return
	}
	for i := range p.Rules {
		r, w := &p.Rules[i], was.Rules[i]
		if len(r.Transitions) == len(w.Transitions) {
			for j := range r.Transitions {
				t, wt := &r.Transitions[j], w.Transitions[j]
				unfill(&t.StorageClass, &t.TierRef, wt.StorageClass, wt.TierRef, wt.TierSelector)
			}
		}
		if len(r.NoncurrentVersionTransitions) == len(w.NoncurrentVersionTransitions) {
			for j := range r.NoncurrentVersionTransitions {
				t, wt := &r.NoncurrentVersionTransitions[j], w.NoncurrentVersionTransitions[j]
				unfill(&t.StorageClass, &t.TierRef, wt.StorageClass, wt.TierRef, wt.TierSelector)
			}
		}
	}
}

// unfill restores a value and its reference to what they were when the
// value was empty and a reference or selector could resolve it.
func unfill(v *string, ref **xpv2.NamespacedReference, was string, wasRef *xpv2.NamespacedReference, wasSel *xpv2.NamespacedSelector) {
	if was != "" || (wasRef == nil && wasSel == nil) {
		return
	}
	*v = ""
	if wasRef == nil {
		*ref = nil
	}
}
