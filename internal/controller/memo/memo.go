// Package memo keeps what the provider must remember about a managed
// resource (credentials it applied, hashes of what it put, failures it must
// not retry) in annotations of its own.
//
// Annotations are the one place such memory survives every phase of the
// managed reconciler: the reconciler persists annotations, not status, after
// Create, and status written in Observe and Update is persisted but status
// written in Create is discarded. Observe folds the memory into status for
// users to read. Writes made outside Create are persisted with Persist.
package memo

import (
	"context"
	"encoding/json"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
)

// Prefix of every annotation this package writes.
const Prefix = "rustfs.m.crossplane.io/"

// Get decodes the JSON value of annotation key into v. It reports false
// if the annotation is absent or cannot be decoded.
func Get(o client.Object, key string, v any) bool {
	s, ok := o.GetAnnotations()[key]
	if !ok {
		return false
	}
	return json.Unmarshal([]byte(s), v) == nil
}

// Set stores v, JSON encoded, as annotation key of the in-memory object.
func Set(o client.Object, key string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only the package's own plain structs are stored.
		panic(err)
	}
	meta.AddAnnotations(o, map[string]string{key: string(b)})
}

// Delete removes annotation key from the in-memory object.
func Delete(o client.Object, key string) {
	meta.RemoveAnnotations(o, key)
}

// Persist writes the given annotation keys of o to the API server with a
// merge patch; a key absent from o is removed. It updates only o's
// resourceVersion, so status set on o in this reconcile is kept and the
// managed reconciler's status update that follows does not conflict.
func Persist(ctx context.Context, kube client.Client, o client.Object, keys ...string) error {
	patch := map[string]any{}
	for _, k := range keys {
		if v, ok := o.GetAnnotations()[k]; ok {
			patch[k] = v
			continue
		}
		patch[k] = nil
	}
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": patch}})
	if err != nil {
		return err
	}
	cp, ok := o.DeepCopyObject().(client.Object)
	if !ok {
		return errors.New("cannot copy object")
	}
	if err := kube.Patch(ctx, cp, client.RawPatch(types.MergePatchType, body)); err != nil {
		return errors.Wrap(err, "cannot record provider state in annotations")
	}
	o.SetResourceVersion(cp.GetResourceVersion())
	return nil
}

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
	return strings.HasPrefix(key, Prefix) ||
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
