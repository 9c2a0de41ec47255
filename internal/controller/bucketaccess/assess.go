package bucketaccess

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// assess compares the service account, its parent user and the connection
// Secret with the spec, and returns what Update must do. An account under
// another parent user, a disabled account and a disabled parent are
// refusals: the provider never takes over, enables or deletes them.
func (e *external) assess(ctx context.Context, cr *v1alpha1.BucketAccess, d desired, info rustfs.ServiceAccountInfo, pub published) (plan, error) {
	parent, err := e.parentUser(ctx, cr)
	if err != nil {
		return plan{}, err
	}
	ak := accessKey(cr)
	switch {
	case info.ParentUser != parent.Name:
		return plan{}, &custody.Refusal{Reason: v1alpha1.ReasonServiceAccountConflict, Message: fmt.Sprintf("A service account "+
			"with this BucketAccess's access key %s exists in RustFS under another parent user than this namespace's, so it "+
			"is neither changed nor deleted. Remove it in RustFS, or delete and recreate this BucketAccess for a new key.", ak)}
	case info.Status != "on":
		return plan{}, &custody.Refusal{Reason: v1alpha1.ReasonServiceAccountDisabled, Message: fmt.Sprintf("The key %s is "+
			"disabled in RustFS, and the provider never enables a key someone disabled. Enable it in RustFS, or delete this "+
			"BucketAccess to revoke it.", ak)}
	}
	p := plan{policy: !info.PolicyMatches(d.policy)}
	if p.parent, err = e.parentDrifted(ctx, parent); err != nil {
		return plan{}, err
	}
	rec := recall(cr)
	held := pub.holds(ak, rec)
	p.rotate = !held || rec.Rotation != cr.Spec.ForProvider.Rotation
	cr.Status.AtProvider = v1alpha1.BucketAccessObservation{AccessKey: ak, ParentUser: info.ParentUser, Buckets: d.buckets}
	if held {
		cr.Status.AtProvider.Rotation = rec.Rotation
	}
	return p, nil
}

// parentDrifted reads the namespace's parent user and its bounding policy:
// true when Update must correct them (EnsureParentUser). A disabled parent
// is a refusal.
func (e *external) parentDrifted(ctx context.Context, parent rustfs.ParentUser) (bool, error) {
	u, err := e.client.UserInfo(ctx, parent.Name)
	if err != nil {
		return false, errors.Wrap(err, "cannot observe the namespace's parent user")
	}
	if !u.Enabled() {
		return false, &custody.Refusal{Reason: v1alpha1.ReasonParentUserDisabled, Message: fmt.Sprintf("The namespace's parent "+
			"user %s is disabled in RustFS, which denies every key of this namespace, and the provider never enables a user "+
			"someone disabled. Enable it in RustFS.", parent.Name)}
	}
	if !slices.Equal(u.Policies, []string{parent.Name}) || len(u.MemberOf) > 0 {
		return true, nil
	}
	got, err := e.client.CannedPolicy(ctx, parent.Name)
	switch {
	case rustfs.IsPolicyNotFound(err):
		return true, nil
	case err != nil:
		return false, errors.Wrap(err, "cannot observe the namespace's parent user's policy")
	}
	return !rustfs.EqualPolicies(got, parent.Policy), nil
}

// diff says what Update will do, for the managed reconciler's log.
func (p plan) diff() string {
	var out []string
	if p.parent {
		out = append(out, "the namespace's parent user or its bounding policy differs")
	}
	if p.policy {
		out = append(out, "the session policy differs from spec.forProvider.buckets")
	}
	if p.rotate {
		out = append(out, "the connection Secret does not hold the current secret key, or spec.forProvider.rotation changed")
	}
	return strings.Join(out, "; ")
}

// report sets the Ready=False condition of a refusal and returns err.
func (e *external) report(_ context.Context, cr *v1alpha1.BucketAccess, err error) error {
	var r *custody.Refusal
	if errors.As(err, &r) {
		cr.Status.AtProvider = v1alpha1.BucketAccessObservation{}
		cr.SetConditions(memo.Unready(r.Reason, r.Message))
	}
	return err
}

// recorded applies a blocking failure an earlier write recorded: while it
// holds and a write is needed, Observe reports it, so that the write is
// not attempted again until the BucketAccess or its ProviderConfig
// changes. When no write is needed any more, the record is cleared.
func (e *external) recorded(ctx context.Context, cr *v1alpha1.BucketAccess, upToDate bool) error {
	return memo.Recorded(ctx, e.kube, cr, e.fingerprint(cr), e.now(), upToDate)
}

// fingerprint digests what lifts a block: the resource's generation and its
// ProviderConfig's revision (which covers the credentials Secret).
func (e *external) fingerprint(cr *v1alpha1.BucketAccess) string {
	return memo.Fingerprint(strconv.FormatInt(cr.GetGeneration(), 10), e.conn.Revision)
}
