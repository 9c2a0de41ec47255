package testenv

import (
	"context"

	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Edit reads the latest obj, applies change to it and updates it, again
// from the read when a controller wrote the object in between (a
// conflict). A test that edits a resource its controller may be writing
// uses it instead of a bare Get and Update.
func (e *Env) Edit(ctx context.Context, obj client.Object, change func()) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := e.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		change()
		return e.Client.Update(ctx, obj)
	})
}
