package custody

import (
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// DesiredStateChanged is crossplane-runtime's predicate of the same name,
// except that annotations the provider and the managed reconciler write
// themselves while reconciling are not a change of desired state, so they
// do not enqueue the resource again while the reconcile that wrote them is
// still running:
//
//   - this package's annotations (the provider's memory);
//   - crossplane.io/external-create-pending, -failed and -succeeded, the
//     managed reconciler's record of a Create (after a successful Create it
//     requeues the resource itself, to observe it);
//   - the addition of crossplane.io/external-name to an object that had
//     none, which the initializer of the first reconcile makes. Any later
//     change of the external name, a user's, is desired state.
func DesiredStateChanged() predicate.Predicate {
	return predicate.Or(
		predicate.Funcs{UpdateFunc: userAnnotationsChanged},
		predicate.LabelChangedPredicate{},
		predicate.GenerationChangedPredicate{},
	)
}

func userAnnotationsChanged(e event.UpdateEvent) bool {
	if e.ObjectOld == nil || e.ObjectNew == nil {
		return false
	}
	old := e.ObjectOld.GetAnnotations()
	_, named := old[meta.AnnotationKeyExternalName]
	skip := func(key string) bool {
		return ignored(key) || (key == meta.AnnotationKeyExternalName && !named)
	}
	return !equalIgnoring(old, e.ObjectNew.GetAnnotations(), skip)
}

// ignored reports annotations that are never desired state: ours, and the
// managed reconciler's records of a Create.
func ignored(key string) bool {
	return strings.HasPrefix(key, memo.Prefix) ||
		key == meta.AnnotationKeyExternalCreatePending ||
		key == meta.AnnotationKeyExternalCreateFailed ||
		key == meta.AnnotationKeyExternalCreateSucceeded
}

// equalIgnoring reports whether a and b hold the same annotations, apart
// from those skip reports.
func equalIgnoring(a, b map[string]string, skip func(string) bool) bool {
	count := func(m map[string]string) int {
		n := 0
		for k := range m {
			if !skip(k) {
				n++
			}
		}
		return n
	}
	if count(a) != count(b) {
		return false
	}
	for k, v := range a {
		if skip(k) {
			continue
		}
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
