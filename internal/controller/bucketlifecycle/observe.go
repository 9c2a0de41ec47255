package bucketlifecycle

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// observe reads the bucket's lifecycle configuration and compares it with
// the spec. It writes nothing to RustFS. In order: a bucket name or a spec
// RustFS would refuse stops; a bucket another namespace manages stops, before any read
// (rule 5); the configuration is read with the lifecycle's own credentials,
// which proves its access; a lifecycle that may not write it stops (package
// custody) without showing it; the provider's memory is folded into status;
// a recorded failure is reported; then the spec and the live configuration
// are compared.
func (e *external) observe(ctx context.Context, cr *v1alpha1.BucketLifecycle) (managed.ExternalObservation, error) {
	if cr.Spec.ForProvider.Bucket == "" {
		return managed.ExternalObservation{}, errors.New("spec.forProvider.bucket is empty: set bucket, bucketRef or bucketSelector")
	}
	if err := naming.Bucket.CheckField("spec.forProvider.bucket", cr.Spec.ForProvider.Bucket); err != nil {
		cr.SetConditions(memo.Unready(v1alpha1.ReasonInvalidBucketName, err.Error()+"; the provider sends nothing to RustFS until then"))
		return managed.ExternalObservation{}, err
	}
	if err := checkSpec(cr); err != nil {
		return managed.ExternalObservation{}, err
	}
	live, err := e.owned(ctx, cr)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	a := recall(cr)
	fold(cr, a)
	cr.Status.AtProvider.RuleIDs = ruleIDsOf(live)
	cr.Status.AtProvider.Rules = len(cr.Status.AtProvider.RuleIDs)
	v := assess(translate(cr.Spec.ForProvider.Rules), live, a)
	if err := e.recorded(ctx, cr, &v); err != nil {
		return managed.ExternalObservation{}, err
	}
	if v.upToDate {
		cr.Status.AtProvider.DroppedFields = v.dropped
		cr.SetConditions(xpv2.Available(), degraded(v.dropped))
	}
	readyIfObserved(cr, v.exists)
	return managed.ExternalObservation{ResourceExists: v.exists, ResourceUpToDate: v.upToDate, Diff: strings.Join(v.diff, "\n")}, nil
}

// owned returns the live configuration if cr may write it: its bucket and
// tiers are held in its namespace (rule 7), and it holds the
// configuration's custody record. Otherwise it returns the refusal.
func (e *external) owned(ctx context.Context, cr *v1alpha1.BucketLifecycle) (*rustfs.Lifecycle, error) {
	identity, err := e.identity(ctx)
	if err != nil {
		return nil, err
	}
	r, err := e.dependents(ctx, cr, identity)
	if err != nil {
		return nil, err
	}
	if r != nil {
		return nil, e.refuse(ctx, cr, r)
	}
	l, readErr := e.client.GetLifecycle(ctx, cr.Spec.ForProvider.Bucket)
	live, err := e.live(cr, l, readErr)
	if rustfs.IsAccessDenied(readErr) {
		was := custody.Record(cr)
		if serr := custody.Save(ctx, e.kube, cr, was, custody.Withdraw(was)); serr != nil {
			return nil, serr
		}
	}
	if err != nil && !rustfs.IsNoSuchBucket(readErr) {
		return nil, err
	}
	refusal, cerr := e.claim(ctx, cr, live != nil)
	switch {
	case cerr != nil:
		return nil, cerr
	case refusal != nil:
		cr.Status.AtProvider = v1alpha1.BucketLifecycleObservation{}
		cr.SetConditions(memo.Unready(refusal.Reason, refusal.Message))
		return nil, refusal
	}
	return live, err
}

// checkSpec reports LifecycleApplyFailed for a spec RustFS would refuse.
func checkSpec(cr *v1alpha1.BucketLifecycle) error {
	problems := validate(cr.Spec.ForProvider.Rules)
	if len(problems) == 0 {
		return nil
	}
	msg := "the lifecycle rules cannot be applied: " + strings.Join(problems, "; ")
	cr.SetConditions(memo.Unready(v1alpha1.ReasonLifecycleApplyFailed, msg))
	return errors.New(msg)
}

// live interprets the answer to a read of the bucket's configuration: nil
// when it has none. A missing bucket is reported as BucketNotFound and
// retried with backoff.
func (e *external) live(cr *v1alpha1.BucketLifecycle, l *rustfs.Lifecycle, err error) (*rustfs.Lifecycle, error) {
	switch {
	case rustfs.IsNoSuchLifecycle(err):
		return nil, nil
	case rustfs.IsNoSuchBucket(err):
		cr.SetConditions(memo.Unready(v1alpha1.ReasonBucketNotFound, bucketNotFound(cr.Spec.ForProvider.Bucket, e.conn.Endpoint)))
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
		cr.SetConditions(memo.Unready(r.Reason, r.Message))
	}
	b, blocked := memo.Blocked(cr, e.fingerprint(cr), "", time.Now())
	_, noted := cr.GetAnnotations()[keyRetry]
	if v.upToDate && (blocked || noted) {
		memo.Delete(cr, memo.BlockKey)
		memo.Delete(cr, keyRetry)
		return memo.Persist(ctx, e.kube, cr, memo.BlockKey, keyRetry)
	}
	if !blocked {
		return nil
	}
	cr.SetConditions(memo.Unready(b.Reason, b.Message))
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
