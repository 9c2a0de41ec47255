package bucketaccess

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// narrow is the Screen's hook for a refused BucketAccess (custody.Screen
// Refused). A refused resource writes nothing for itself, but a key it made
// before a longer namespace took one of its buckets keeps its session
// policy, and the bound of its namespace's parent user, "<namespace>-*",
// covers the longer namespace's buckets. So when a BucketAccess that made
// its key is refused a name (NameOutsideNamespace; rule 1 lets its
// namespace use its ProviderConfig), narrow makes the parent's bound deny
// the buckets of the longer namespaces that exist. That write only takes
// rights from the resource's own namespace: it creates no user, enables,
// widens and deletes nothing, and reads no Secret but its ProviderConfig's.
func (c *connector) narrow(ctx context.Context, s custody.Subject, t *connection.Target, r *custody.Refusal) error {
	cr, ok := s.(*v1alpha1.BucketAccess)
	if !ok || r.Reason != v1alpha1.ReasonNameOutsideNamespace || custody.Record(cr).Acquired != v1alpha1.AcquiredCreated {
		return nil
	}
	conn, err := c.gate.Connect(ctx, cr, t)
	if err != nil {
		return errors.Wrap(err, "cannot resolve the ProviderConfig to narrow the namespace's parent user")
	}
	e, err := c.external(conn)
	if err != nil {
		return err
	}
	return e.narrowParent(ctx, cr)
}

// narrowParent writes the namespace's parent bound when a longer namespace
// exists and the bound in RustFS differs from it. A parent that does not
// exist or is disabled grants nothing, and is left alone.
func (e *external) narrowParent(ctx context.Context, cr *v1alpha1.BucketAccess) error {
	excluded, err := e.longer(ctx, cr)
	if err != nil || len(excluded) == 0 {
		return err
	}
	p, err := e.parentUser(ctx, cr)
	if err != nil {
		return err
	}
	drifted, err := e.parentDrifted(ctx, p)
	var disabled *custody.Refusal
	switch {
	case rustfs.IsUserNotFound(err), errors.As(err, &disabled):
		return nil
	case err != nil || !drifted:
		return err
	}
	_, err = e.client.EnsureParentUser(ctx, p)
	return errors.Wrap(err, "cannot narrow the namespace's parent user")
}
