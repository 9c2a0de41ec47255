package options

import (
	"context"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// A LocalResolver resolves a managed resource's references as the managed
// reconciler's own resolver does, and then drops from every resolved
// reference the namespace the resolver writes when a selector resolves: the
// resource's own. The CRDs refuse a reference that names a namespace, so
// that no reference can leave it; without this, every resolved selector
// would be refused when stored, and never reach RustFS.
type LocalResolver struct {
	client client.Client
}

// NewLocalResolver returns a LocalResolver that reads and patches through c.
func NewLocalResolver(c client.Client) *LocalResolver { return &LocalResolver{client: c} }

// ResolveReferences resolves mg's references and stores them when they
// changed.
func (r *LocalResolver) ResolveReferences(ctx context.Context, mg resource.Managed) error {
	rr, ok := mg.(interface {
		ResolveReferences(ctx context.Context, c client.Reader) error
	})
	if !ok {
		return nil
	}
	existing := mg.DeepCopyObject().(client.Object)
	if err := rr.ResolveReferences(ctx, r.client); err != nil {
		return errors.Wrap(err, "cannot resolve references")
	}
	if l, ok := mg.(interface{ LocalReferences() }); ok {
		l.LocalReferences()
	}
	if cmp.Equal(existing, mg, cmpopts.EquateEmpty()) {
		return nil
	}
	return errors.Wrap(r.client.Patch(ctx, mg, client.MergeFrom(existing)), "cannot store the resolved references")
}
