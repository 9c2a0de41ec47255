package bucketaccess

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// A plan is what Update must do: correct the namespace's parent user,
// replace the session policy, replace the secret key.
type plan struct {
	parent, policy, rotate bool
}

func (p plan) empty() bool { return !p.parent && !p.policy && !p.rotate }

// Observe reads the key's service account and compares it with the spec.
// It writes nothing to RustFS. In order: a spec that cannot become a
// session policy stops; a bucket the key may not be granted stops, before
// any RustFS read but the deployment's identity (the bucket rule); the
// connection Secret must be free for this resource; then the service
// account, its parent user and the Secret are compared with the spec. A
// BucketAccess being deleted only looks for its own key.
func (e *external) Observe(ctx context.Context, cr *v1alpha1.BucketAccess) (managed.ExternalObservation, error) {
	if meta.WasDeleted(cr) {
		return e.observeDeleted(ctx, cr)
	}
	d, err := desire(cr)
	if err != nil {
		cr.SetConditions(memo.Unready(v1alpha1.ReasonAccessApplyFailed, err.Error()))
		return managed.ExternalObservation{}, err
	}
	proof, err := e.admit(ctx, cr, d.buckets)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	pub, err := e.readSecret(ctx, cr)
	if err != nil {
		return managed.ExternalObservation{}, e.report(ctx, cr, err)
	}
	info, found, err := e.info(ctx, cr, proof)
	if err != nil || !found {
		return managed.ExternalObservation{}, absent(cr, err)
	}
	p, err := e.assess(ctx, cr, d, info, pub)
	if err != nil {
		return managed.ExternalObservation{}, e.report(ctx, cr, err)
	}
	e.plan = p
	if err := e.recorded(ctx, cr, p.empty()); err != nil {
		return managed.ExternalObservation{}, err
	}
	readyIfObserved(cr, p.empty())
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: p.empty(), Diff: p.diff(),
		ConnectionDetails: e.details(accessKey(cr), "", d.buckets)}, nil
}

// observeDeleted reports whether the key of a BucketAccess being deleted
// still exists under its namespace's parent user, so that Delete revokes
// it. An account with its access key under another parent is not its own
// and is left alone.
func (e *external) observeDeleted(ctx context.Context, cr *v1alpha1.BucketAccess) (managed.ExternalObservation, error) {
	info, err := e.client.ServiceAccountInfo(ctx, accessKey(cr))
	switch {
	case rustfs.IsServiceAccountNotFound(err):
		return managed.ExternalObservation{}, nil
	case err != nil:
		return managed.ExternalObservation{}, errors.Wrap(err, "cannot observe the key to revoke")
	}
	p, err := e.parentUser(ctx, cr)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	return managed.ExternalObservation{ResourceExists: info.ParentUser == p.Name, ResourceUpToDate: true}, nil
}

// admit applies the bucket rule, after finding the identity of the RustFS
// the resource reaches: a refused resource reads nothing more and writes
// nothing.
func (e *external) admit(ctx context.Context, cr *v1alpha1.BucketAccess, buckets []string) (custody.Proof, error) {
	p, err := e.identify.Proof(ctx, e.conn, accessKey(cr))
	if err != nil {
		return custody.Proof{}, e.withdrawIfDenied(ctx, cr, errors.Wrap(err, "cannot identify the RustFS deployment"))
	}
	r, err := e.bucketRule(ctx, cr, p, buckets)
	if err != nil {
		return custody.Proof{}, err
	}
	if r != nil {
		was := custody.Record(cr)
		if err := custody.Save(ctx, e.kube, cr, was, custody.Ineligible(was)); err != nil {
			return custody.Proof{}, err
		}
		return custody.Proof{}, e.report(ctx, cr, r)
	}
	e.identity = p.Identity
	return p, nil
}

// info reads the service account with the resource's ProviderConfig, which
// proves its access and is recorded (package custody). found is false when
// the account does not exist.
func (e *external) info(ctx context.Context, cr *v1alpha1.BucketAccess, p custody.Proof) (rustfs.ServiceAccountInfo, bool, error) {
	info, err := e.client.ServiceAccountInfo(ctx, accessKey(cr))
	found := err == nil
	if err != nil && !rustfs.IsServiceAccountNotFound(err) {
		return info, false, e.withdrawIfDenied(ctx, cr, errors.Wrap(err, "cannot observe the key's service account"))
	}
	was := custody.Record(cr)
	rec := custody.Prove(was, p, e.now())
	rec.Eligible = true
	if !found {
		cr.Status.AtProvider = v1alpha1.BucketAccessObservation{}
	}
	return info, found, custody.Save(ctx, e.kube, cr, was, rec)
}

// withdrawIfDenied withdraws the resource's proven access when RustFS
// refused its ProviderConfig's credentials, and returns err.
func (e *external) withdrawIfDenied(ctx context.Context, cr *v1alpha1.BucketAccess, err error) error {
	if !rustfs.IsAccessDenied(err) {
		return err
	}
	was := custody.Record(cr)
	if serr := custody.Save(ctx, e.kube, cr, was, custody.Withdraw(was)); serr != nil {
		return serr
	}
	return err
}
