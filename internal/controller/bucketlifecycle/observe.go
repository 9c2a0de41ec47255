package bucketlifecycle

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/owner"
)

// Observe reads the bucket's lifecycle configuration and compares it with
// the spec. It writes nothing to RustFS. In order: a BucketLifecycle that
// does not own its bucket stops; a spec RustFS would refuse stops; the live
// configuration is read and the provider's memory folded into status; a
// recorded failure is reported; then the spec and the live configuration
// are compared.
func (e *external) Observe(ctx context.Context, cr *v1alpha1.BucketLifecycle) (managed.ExternalObservation, error) {
	if cr.Spec.ForProvider.Bucket == "" {
		return managed.ExternalObservation{}, errors.New("spec.forProvider.bucket is empty: set bucket, bucketRef or bucketSelector")
	}
	if err := e.claim(ctx, cr); err != nil {
		return managed.ExternalObservation{}, err
	}
	if err := checkSpec(cr); err != nil {
		return managed.ExternalObservation{}, err
	}
	live, err := e.live(ctx, cr)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	a := recall(cr)
	fold(cr, a)
	cr.Status.AtProvider.RuleIDs = ruleIDsOf(live)
	v := assess(translate(cr.Spec.ForProvider.Rules), live, a)
	if err := e.recorded(ctx, cr, &v); err != nil {
		return managed.ExternalObservation{}, err
	}
	if v.upToDate {
		cr.Status.AtProvider.DroppedFields = v.dropped
		cr.SetConditions(xpv2.Available(), degraded(v.dropped))
	}
	return managed.ExternalObservation{ResourceExists: v.exists, ResourceUpToDate: v.upToDate, Diff: strings.Join(v.diff, "\n")}, nil
}

// claim reports DuplicateLifecycle unless cr owns its bucket on its
// endpoint: the oldest BucketLifecycle of a bucket does.
func (e *external) claim(ctx context.Context, cr *v1alpha1.BucketLifecycle) error {
	peers, err := e.peers(ctx, cr.Spec.ForProvider.Bucket)
	if err != nil {
		return err
	}
	o := owner.Find(ctx, cr, e.conn.Endpoint, peers, e.endpointOf)
	if o.GetUID() == cr.GetUID() {
		return nil
	}
	msg := fmt.Sprintf("BucketLifecycle %s/%s already manages the lifecycle configuration of bucket %q on %s, and S3 replaces "+
		"a bucket's whole configuration, so this one writes nothing: merge its rules into %s/%s and delete this BucketLifecycle",
		o.GetNamespace(), o.GetName(), cr.Spec.ForProvider.Bucket, e.conn.Endpoint, o.GetNamespace(), o.GetName())
	cr.SetConditions(notReady(v1alpha1.ReasonDuplicateLifecycle, msg))
	return errors.New(msg)
}

// checkSpec reports LifecycleApplyFailed for a spec RustFS would refuse.
func checkSpec(cr *v1alpha1.BucketLifecycle) error {
	problems := validate(cr.Spec.ForProvider.Rules)
	if len(problems) == 0 {
		return nil
	}
	msg := "the lifecycle rules cannot be applied: " + strings.Join(problems, "; ")
	cr.SetConditions(notReady(v1alpha1.ReasonLifecycleApplyFailed, msg))
	return errors.New(msg)
}

// live returns the bucket's configuration, nil when it has none. A missing
// bucket is reported as BucketNotFound and retried with backoff.
func (e *external) live(ctx context.Context, cr *v1alpha1.BucketLifecycle) (*rustfs.Lifecycle, error) {
	l, err := e.client.GetLifecycle(ctx, cr.Spec.ForProvider.Bucket)
	switch {
	case rustfs.IsNoSuchLifecycle(err):
		return nil, nil
	case rustfs.IsNoSuchBucket(err):
		cr.SetConditions(notReady(v1alpha1.ReasonBucketNotFound, bucketNotFound(cr.Spec.ForProvider.Bucket, e.conn.Endpoint)))
		return nil, errors.Wrap(err, "cannot observe the lifecycle configuration")
	case err != nil:
		return nil, errors.Wrap(err, "cannot observe the lifecycle configuration")
	case len(l.Rules) == 0:
		return nil, nil
	}
	return l, nil
}

func bucketNotFound(bucket, endpoint string) string {
	return fmt.Sprintf("bucket %q does not exist on %s: create it, for example with a Bucket; the provider retries with backoff "+
		"and applies the rules once it exists", bucket, endpoint)
}

// recorded applies what earlier writes recorded. A failed first put that is
// retried makes the configuration "exist", so that the reconciler retries it
// through Update, where status persists. A blocking failure stops every
// write until the resource or its ProviderConfig changes, unless the live
// configuration already matches; then the record is cleared.
func (e *external) recorded(ctx context.Context, cr *v1alpha1.BucketLifecycle, v *verdict) error {
	var r retry
	if memo.Get(cr, keyRetry, &r) && !v.exists {
		v.exists = true
		cr.SetConditions(notReady(r.Reason, r.Message))
	}
	b, blocked := memo.Blocked(cr, e.fingerprint(cr))
	_, noted := cr.GetAnnotations()[keyRetry]
	if v.upToDate && (blocked || noted) {
		memo.Delete(cr, memo.BlockKey)
		memo.Delete(cr, keyRetry)
		return memo.Persist(ctx, e.kube, cr, memo.BlockKey, keyRetry)
	}
	if !blocked {
		return nil
	}
	cr.SetConditions(notReady(b.Reason, b.Message))
	return errors.New(b.Message)
}

// fingerprint digests what lifts a block: the resource's generation and its
// ProviderConfig's revision (which covers the credentials Secret).
func (e *external) fingerprint(cr *v1alpha1.BucketLifecycle) string {
	return memo.Fingerprint(strconv.FormatInt(cr.GetGeneration(), 10), e.conn.Revision)
}

// A verdict is the result of comparing the spec with the live configuration.
type verdict struct {
	exists   bool
	upToDate bool
	diff     []string
	dropped  []string
}

// assess compares desired, the configuration the spec renders (nil for no
// rules), with live (nil when none is set), using the memory of the last
// put: while the spec is what was put and the live configuration is what
// RustFS returned afterwards, the resource is up to date even if RustFS
// dropped fields. Otherwise the normalised configurations must be equal.
func assess(desired, live *rustfs.Lifecycle, a applied) verdict {
	switch {
	case live == nil && desired == nil:
		return verdict{exists: true, upToDate: true}
	case live == nil:
		return verdict{diff: []string{"the bucket has no lifecycle configuration"}}
	case desired == nil:
		return verdict{exists: true, diff: []string{"spec.forProvider.rules is empty: the live configuration is to be deleted"}}
	case a.covers(hash(desired), hash(live)):
		return verdict{exists: true, upToDate: true, dropped: a.Dropped}
	}
	d := compare(desired, live)
	return verdict{exists: true, upToDate: len(d) == 0, diff: d}
}

func ruleIDsOf(l *rustfs.Lifecycle) []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l.Rules))
	for i, r := range l.Rules {
		out[i] = r.ID
	}
	return out
}
