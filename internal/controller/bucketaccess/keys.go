package bucketaccess

import (
	"context"
	"slices"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// Keys follow custody (docs/multi-tenancy.md, rule 8). Every key has a key
// record, a CustodyRecord of kind ServiceAccount held by its BucketAccess,
// that lists the buckets the key may reach and is written before the key
// is created or widened. When a listed bucket's record is held by, or
// released for, another namespace, the bucket is taken out of the key's
// session policy, and a key left with no bucket is deleted (an empty
// session policy means full access). This runs in front of the managed
// reconciler, so it also narrows the keys of paused BucketAccesses and of
// those whose management policies lack Update.

// recordKey writes the key record of cr on the RustFS identity before its
// key is created or widened: it lists buckets and those it listed before.
func (e *external) recordKey(ctx context.Context, cr *v1alpha1.BucketAccess, identity string, buckets []string) error {
	st := e.custodian().Store
	name := v1alpha1.CustodyRecordName(identity, v1alpha1.CustodyServiceAccount, accessKey(cr))
	r, err := st.Get(ctx, name)
	switch {
	case err != nil:
		return err
	case r == nil:
		r = &v1alpha1.CustodyRecord{Spec: v1alpha1.CustodyRecordSpec{Identity: identity, Kind: v1alpha1.CustodyServiceAccount,
			Object: accessKey(cr), Holder: custody.HolderOf(cr), Phase: v1alpha1.PhaseCreated, Buckets: buckets}}
		r.SetName(name)
		return st.Create(ctx, r)
	case !custody.Holds(r, cr):
		return errors.Errorf("the key record %s of access key %s is held by another resource", name, accessKey(cr))
	}
	all := append(slices.Clone(r.Spec.Buckets), buckets...)
	slices.Sort(all)
	all = slices.Compact(all)
	if slices.Equal(all, r.Spec.Buckets) {
		return nil
	}
	r.Spec.Buckets = all
	return st.Update(ctx, r)
}

// A follower stands in front of the managed reconciler and narrows the
// keys of a BucketAccess to the buckets its namespace still holds.
type follower struct {
	c     *connector
	inner reconcile.Reconciler
}

// Reconcile narrows the resource's keys, then passes the request on, also
// when narrowing failed (a ProviderConfig that is gone must not keep the
// resource from being deleted); that failure is then retried with backoff.
func (f follower) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cr := &v1alpha1.BucketAccess{}
	var err error
	if f.c.kube.Get(ctx, req.NamespacedName, cr) == nil {
		err = f.c.follow(ctx, cr)
	}
	res, innerErr := f.inner.Reconcile(ctx, req)
	if innerErr != nil || err == nil {
		return res, innerErr
	}
	return reconcile.Result{}, errors.Wrap(err, "cannot narrow the key to the buckets its namespace holds")
}

// follow narrows every key cr's key records list to the buckets whose
// records the namespace still holds (or that have none).
func (c *connector) follow(ctx context.Context, cr *v1alpha1.BucketAccess) error {
	l := &v1alpha1.CustodyRecordList{}
	if err := c.uncached.List(ctx, l, client.MatchingLabels{v1alpha1.LabelCustodyHolderNamespace: cr.GetNamespace()}); err != nil {
		return errors.Wrap(err, "cannot list the key records of the namespace")
	}
	for i := range l.Items {
		r := &l.Items[i]
		if r.Spec.Kind != v1alpha1.CustodyServiceAccount || !custody.Holds(r, cr) {
			continue
		}
		gone, err := c.moved(ctx, r)
		if err != nil || len(gone) == 0 {
			return err
		}
		if err := c.narrowKey(ctx, cr, r, gone); err != nil {
			return err
		}
	}
	return nil
}

// moved returns the buckets key record r lists whose records are held by,
// or released for, another namespace, or by none.
func (c *connector) moved(ctx context.Context, r *v1alpha1.CustodyRecord) ([]string, error) {
	st := custody.Store{Kube: c.kube, Reader: c.uncached}
	var out []string
	for _, b := range r.Spec.Buckets {
		br, err := st.Get(ctx, v1alpha1.CustodyRecordName(r.Spec.Identity, v1alpha1.CustodyBucket, b))
		if err != nil {
			return nil, err
		}
		if br != nil && custody.HolderNamespace(br) != r.Spec.Holder.Namespace {
			out = append(out, b)
		}
	}
	return out, nil
}

// narrowKey takes the buckets gone out of the key of key record r, with
// cr's ProviderConfig, and then out of r.
func (c *connector) narrowKey(ctx context.Context, cr *v1alpha1.BucketAccess, r *v1alpha1.CustodyRecord, gone []string) error {
	t, err := c.gate.Target(ctx, cr)
	if err != nil {
		return errors.Wrap(err, "cannot resolve the ProviderConfig to narrow the key")
	}
	conn, err := c.gate.Connect(ctx, cr, t)
	if err != nil {
		return errors.Wrap(err, "cannot resolve the ProviderConfig to narrow the key")
	}
	cl, err := c.newClient(conn.Config)
	if err != nil {
		return errors.Wrap(err, "cannot create the RustFS client")
	}
	if err := withoutBuckets(ctx, cl, cr.GetNamespace(), r.Spec.Object, gone); err != nil {
		return err
	}
	r.Spec.Buckets = slices.DeleteFunc(r.Spec.Buckets, func(b string) bool { return slices.Contains(gone, b) })
	return custody.Store{Kube: c.kube, Reader: c.uncached}.Update(ctx, r)
}

// withoutBuckets takes gone out of the session policy of key ak under the
// parent user of namespace ns; it deletes the key when no statement is
// left, or when it has no session policy of its own. A key that is gone or
// under another parent user is left alone.
func withoutBuckets(ctx context.Context, cl api, ns, ak string, gone []string) error {
	info, err := cl.ServiceAccountInfo(ctx, ak)
	if rustfs.IsServiceAccountNotFound(err) {
		return nil
	}
	if err != nil {
		return errors.Wrap(err, "cannot observe the key to narrow")
	}
	parent, err := rustfs.ParentUserName(ns)
	if err != nil || info.ParentUser != parent {
		return err
	}
	p, err := rustfs.ParsePolicy(info.Policy)
	if err == nil && !info.ImpliedPolicy {
		p.Statements = narrowStatements(p.Statements, gone)
	}
	if err != nil || info.ImpliedPolicy || !slices.ContainsFunc(p.Statements, allows) {
		return errors.Wrap(cl.DeleteServiceAccount(ctx, ak), "cannot delete the key left with no bucket")
	}
	return errors.Wrap(cl.UpdateServiceAccount(ctx, ak, rustfs.ServiceAccountUpdate{Policy: &p}), "cannot narrow the key")
}

// allows reports whether s is an Allow statement.
func allows(s rustfs.Statement) bool { return s.Effect == "Allow" }

// narrowStatements drops the resources of Allow statements that name a
// bucket of gone, and the statements left with none; Deny statements
// stay. An Allow statement with NotResource could reach any bucket, so it
// is dropped.
func narrowStatements(in []rustfs.Statement, gone []string) []rustfs.Statement {
	var out []rustfs.Statement
	for _, s := range in {
		switch {
		case !allows(s):
			out = append(out, s)
			continue
		case len(s.NotResources) > 0:
			continue
		}
		s.Resources = slices.DeleteFunc(slices.Clone(s.Resources), func(res string) bool {
			return slices.ContainsFunc(gone, func(b string) bool { return namesBucket(res, b) })
		})
		if len(s.Resources) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// namesBucket reports whether resource ARN res may name bucket b or an
// object in it: exactly, or through a wildcard.
func namesBucket(res, b string) bool {
	arn := "arn:aws:s3:::" + b
	if res == arn || strings.HasPrefix(res, arn+"/") {
		return true
	}
	i := strings.IndexAny(res, "*?")
	return i >= 0 && strings.HasPrefix(arn, res[:i])
}
