package bucketaccess

import (
	"context"
	"fmt"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// maxDescription is the longest description RustFS stores.
const maxDescription = 256

// Create makes sure the namespace's parent user exists, then adds the
// service account under it with a new secret key and the generated
// session policy, and returns the connection details, the only place the
// secret key goes. The key record is persisted before RustFS is asked, so
// a lost answer shows as a Secret that does not hold the key. An access key
// already in use is left to the next Observe, which checks whose it is.
func (e *external) Create(ctx context.Context, cr *v1alpha1.BucketAccess) (managed.ExternalCreation, error) {
	d, err := desire(cr)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	parent, err := e.ensureParent(ctx, cr)
	if err != nil {
		return managed.ExternalCreation{}, e.fail(ctx, cr, "create the parent user of", err, "")
	}
	if err := e.recordKey(ctx, cr, e.identity, d.buckets); err != nil {
		return managed.ExternalCreation{}, err
	}
	ak := accessKey(cr)
	sk, err := e.remember(ctx, cr, ak)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	err = e.client.AddServiceAccount(ctx, rustfs.NewServiceAccount{AccessKey: ak, SecretKey: sk, Policy: d.policy,
		Description: description(cr), TargetUser: parent.Name})
	switch {
	case rustfs.IsAccessKeyInUse(err):
		return managed.ExternalCreation{}, errors.Errorf("the key %s exists already; the next observation checks whose it is "+
			"and, if it is this BucketAccess's, gives it a new secret key", ak)
	case err != nil:
		return managed.ExternalCreation{}, e.fail(ctx, cr, "create", err, sk)
	}
	if err := custody.Created(ctx, e.kube, cr); err != nil {
		return managed.ExternalCreation{}, err
	}
	return managed.ExternalCreation{ConnectionDetails: e.details(ak, sk, d.buckets)}, nil
}

// Update does what Observe planned: it corrects the namespace's parent
// user, and replaces the session policy and the secret key in one request.
// A new secret key is returned in the connection details.
func (e *external) Update(ctx context.Context, cr *v1alpha1.BucketAccess) (managed.ExternalUpdate, error) {
	d, err := desire(cr)
	if err != nil {
		return managed.ExternalUpdate{}, err
	}
	if e.plan.parent {
		if _, err := e.ensureParent(ctx, cr); err != nil {
			return managed.ExternalUpdate{}, e.fail(ctx, cr, "correct the parent user of", err, "")
		}
	}
	ak := accessKey(cr)
	u, err := e.change(ctx, cr, ak, d)
	if err != nil {
		return managed.ExternalUpdate{}, err
	}
	if u.Policy != nil || u.SecretKey != "" {
		if err := e.client.UpdateServiceAccount(ctx, ak, u); err != nil {
			return managed.ExternalUpdate{}, e.fail(ctx, cr, "update", err, u.SecretKey)
		}
	}
	if u.SecretKey != "" {
		cr.Status.AtProvider.Rotation = cr.Spec.ForProvider.Rotation
		e.rotated(cr, ak)
	}
	cr.SetConditions(xpv2.Available())
	return managed.ExternalUpdate{ConnectionDetails: e.details(ak, u.SecretKey, d.buckets)}, nil
}

// change is the update Observe planned: the generated session policy when
// it drifted, and a fresh secret key, remembered first, when rotating.
func (e *external) change(ctx context.Context, cr *v1alpha1.BucketAccess, ak string, d desired) (rustfs.ServiceAccountUpdate, error) {
	u := rustfs.ServiceAccountUpdate{}
	if e.plan.policy {
		if err := e.recordKey(ctx, cr, e.identity, d.buckets); err != nil {
			return u, err
		}
		u.Policy = &d.policy
	}
	if !e.plan.rotate {
		return u, nil
	}
	var err error
	u.SecretKey, err = e.remember(ctx, cr, ak)
	return u, err
}

// Delete revokes the key: it deletes the service account, which RustFS
// rejects at once. The namespace's parent user stays, as removing it would
// revoke every key of the namespace. An account that is gone is done, as
// the client decides (DeleteServiceAccount confirms "not found" with info).
func (e *external) Delete(ctx context.Context, cr *v1alpha1.BucketAccess) (managed.ExternalDelete, error) {
	err := e.client.DeleteServiceAccount(ctx, accessKey(cr))
	return managed.ExternalDelete{}, errors.Wrap(err, "cannot revoke the key")
}

// ensureParent makes the namespace's parent user exist with its bounding
// policy. A disabled parent is reported, never enabled.
func (e *external) ensureParent(ctx context.Context, cr *v1alpha1.BucketAccess) (rustfs.ParentUser, error) {
	p, err := e.parentUser(ctx, cr)
	if err != nil {
		return p, err
	}
	st, err := e.client.EnsureParentUser(ctx, p)
	if err != nil {
		return p, err
	}
	if !st.Enabled {
		return p, errors.Errorf("the namespace's parent user %s is disabled in RustFS; the provider never enables it", p.Name)
	}
	return p, nil
}

// remember chooses a new secret key and persists its record (a digest and
// the rotation it is for) before RustFS is asked to take it.
func (e *external) remember(ctx context.Context, cr *v1alpha1.BucketAccess, ak string) (string, error) {
	sk, err := e.newSecret()
	if err != nil {
		return "", errors.Wrap(err, "cannot generate a secret key")
	}
	memo.Set(cr, keyMemory, keyRecord{Digest: digest(ak, sk), Rotation: cr.Spec.ForProvider.Rotation})
	return sk, memo.Persist(ctx, e.kube, cr, keyMemory)
}

// fail classifies a failed write: transient failures are retried with
// backoff; anything else blocks the write until the BucketAccess or its
// ProviderConfig changes. The secret key sk never reaches the message.
func (e *external) fail(ctx context.Context, cr *v1alpha1.BucketAccess, op string, err error, sk string) error {
	transient := rustfs.IsTransient(err)
	err = scrub(err, sk)
	if transient {
		return errors.Wrapf(err, "cannot %s the key", op)
	}
	msg := fmt.Sprintf("cannot %s the key (%v): fix spec.forProvider, or the ProviderConfig's credentials if access was "+
		"denied; the provider does not retry until the BucketAccess or its ProviderConfig changes", op, err)
	return memo.Refuse(ctx, e.kube, cr, memo.Block{Reason: v1alpha1.ReasonAccessApplyFailed, Message: msg,
		Fingerprint: e.fingerprint(cr)}, true, err)
}

// description names the resource in RustFS, for operators.
func description(cr *v1alpha1.BucketAccess) string {
	s := "provider-rustfs BucketAccess " + cr.GetNamespace() + "/" + cr.GetName()
	if len(s) > maxDescription {
		s = s[:maxDescription]
	}
	return s
}

// reasonCredentialsRotated is the event reason of a replaced secret key, as
// for a Tier whose credentials changed.
const reasonCredentialsRotated event.Reason = "CredentialsRotated"

// rotated raises one event for a secret key RustFS took: the connection
// Secret receives it next. The message names the access key, never a
// secret.
func (e *external) rotated(cr *v1alpha1.BucketAccess, ak string) {
	if e.record == nil {
		return
	}
	e.record.Event(cr, event.Normal(reasonCredentialsRotated, "replaced the secret key of access key "+ak+
		"; the connection Secret receives the new one"))
}
