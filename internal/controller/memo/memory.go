// Package memo keeps what the provider must remember about a managed
// resource but that grants nothing.
//
// Annotations with the prefix rustfs.m.crossplane.io/ (Get, Set, Persist):
// what the provider must remember but that grants nothing: the credentials
// it applied to a tier, the hashes of the lifecycle configuration it put,
// and blocks (Block). The managed reconciler persists annotations, not
// status, after Create, so such memory set in Create must be annotations.
// Anyone who may edit the resource may edit them: forging them can only
// make the provider retry a write it would make anyway, skip a write to the
// resource's own object, or report a stale failure, all within what that
// person can already do by editing the spec.
//
// A block records a write that failed in a way only a change of
// configuration can fix; the write is not attempted again while the
// resource's inputs (Fingerprint) stay the same.
package memo

import (
	"context"
	"encoding/json"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
)

// Prefix of every annotation this package writes: the provider's memory of
// what it applied, which grants no right (see the package doc). Annotations
// survive every phase of the managed reconciler, Create included.
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
