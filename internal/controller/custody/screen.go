package custody

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// A Screen stands in front of a kind's reconciler and the global rate
// limiter. A resource that rules 1 or 2 refuse (Gate) is not passed on:
// the Screen reports the refusal in its status (Ready=False and
// Synced=False with the refusal's reason) and withdraws its eligibility,
// only when that changes, and checks it again after the poll interval.
// The refusal is stable until the Namespace's labels, the ProviderConfig or
// the resource change, or a namespace with a longer prefix is created or
// deleted, and the controllers watch all of these (Watch), so a refused
// resource is not retried with backoff and takes none of the provider's
// reconcile budget. The Gate in Connect still decides again right before
// any Secret is read. A paused resource is passed on whatever the rules
// say, but a refusal still withdraws its eligibility and calls Refused
// (paused).
type Screen struct {
	Kube  client.Client
	Gate  *Gate
	Inner reconcile.Reconciler
	Poll  time.Duration

	// New returns an empty resource of the kind.
	New func() Subject
	// Names returns the names the resource writes or refers to.
	Names func(s Subject) Names

	// Refused, when set, is called with a refused resource, its
	// ProviderConfig's target and the refusal, after the refusal is
	// reported. A kind uses it to take back rights the refusal alone does
	// not (BucketAccess narrows its namespace's parent user). An error is
	// retried with backoff.
	Refused func(ctx context.Context, s Subject, t *connection.Target, r *Refusal) error
}

// Reconcile passes the request on unless the tenancy rules refuse the
// resource, in which case it reports the refusal. A paused resource is
// always passed on (paused).
func (s *Screen) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	o := s.New()
	if err := s.Kube.Get(ctx, req.NamespacedName, o); err != nil {
		return s.Inner.Reconcile(ctx, req)
	}
	if Paused(o) {
		return s.paused(ctx, req, o)
	}
	if meta.WasDeleted(o) {
		return s.Inner.Reconcile(ctx, req)
	}
	t, r, err := s.refusal(ctx, o)
	if err != nil || r == nil {
		return s.Inner.Reconcile(ctx, req)
	}
	err = s.report(ctx, o, r)
	if err == nil && s.Refused != nil {
		err = s.Refused(ctx, o, t, r)
	}
	return Requeue(err, s.Poll)
}

// Paused reports whether the managed reconciler leaves s alone, as
// crossplane-runtime decides: the crossplane.io/paused annotation is
// "true", or spec.managementPolicies is empty.
func Paused(s resource.Managed) bool {
	return meta.IsPaused(s) || len(s.GetManagementPolicies()) == 0
}

// paused passes a paused resource on, so that the managed reconciler
// reports ReconcilePaused and writes nothing for it. Pausing must not keep
// what the tenancy rules refuse, so when they refuse o, the Screen still
// withdraws o's eligibility in its custody record (an older paused
// resource must not keep another namespace's object from its owner) and
// calls the Refused hook, which only takes rights away; it leaves o's
// conditions alone, and checks o again after the poll interval. This runs
// after the managed reconciler, whose status update is conditional on the
// resourceVersion it read, so the custody write does not make it conflict.
// An admitted paused resource gains nothing: only an unpaused reconcile
// makes it eligible again.
func (s *Screen) paused(ctx context.Context, req reconcile.Request, o Subject) (reconcile.Result, error) {
	t, r, err := s.refusal(ctx, o)
	res, innerErr := s.Inner.Reconcile(ctx, req)
	if err == nil && r == nil {
		return res, innerErr
	}
	if err == nil {
		was := Record(o)
		err = Save(ctx, s.Kube, o, was, Ineligible(was))
	}
	if err == nil && s.Refused != nil {
		err = s.Refused(ctx, o, t, r)
	}
	if err == nil && (innerErr != nil || res.RequeueAfter > 0 && res.RequeueAfter < s.Poll) {
		return res, innerErr
	}
	return Requeue(err, s.Poll)
}

// refusal returns o's ProviderConfig target and the tenancy rules' refusal
// of o, if any. No target means no refusal: the managed reconciler reports
// why it cannot connect. An error is one of reading the rules' inputs.
func (s *Screen) refusal(ctx context.Context, o Subject) (*connection.Target, *Refusal, error) {
	t, err := s.Gate.Target(ctx, o)
	if err != nil {
		return nil, nil, nil
	}
	r, err := s.Gate.check(ctx, o.GetNamespace(), t, s.Names(o))
	return t, r, err
}

// Requeue is the result of a reconciler that stands in front of a kind's
// reconciler and reported why it did not pass a resource on, where err is
// what the report answered: after poll, or after a second when the report
// met a conflict (the cache is behind a write; the next try reads the newer
// object). A resource deleted meanwhile is not an error.
func Requeue(err error, poll time.Duration) (reconcile.Result, error) {
	switch {
	case kerrors.IsConflict(err):
		return reconcile.Result{RequeueAfter: time.Second}, nil
	case err != nil && !kerrors.IsNotFound(err):
		return reconcile.Result{}, err
	}
	return reconcile.Result{RequeueAfter: poll}, nil
}

// report sets the refusal's conditions and withdraws o's eligibility,
// unless o already says so for this generation. The status patch is
// conditional on the resourceVersion read, so a stale cache never
// overwrites a newer status.
func (s *Screen) report(ctx context.Context, o Subject, r *Refusal) error {
	was := Record(o)
	rec := Ineligible(was)
	synced := xpv2.Condition{Type: xpv2.TypeSynced, Status: corev1.ConditionFalse, Reason: r.Reason, Message: r.Message,
		LastTransitionTime: metav1.Now(), ObservedGeneration: o.GetGeneration()}
	ready := NotReady(o, r)
	if o.GetCondition(xpv2.TypeSynced).Equal(synced) && o.GetCondition(xpv2.TypeReady).Equal(ready) && equality.Semantic.DeepEqual(was, rec) {
		return nil
	}
	cp, ok := o.DeepCopyObject().(Subject)
	if !ok {
		return errors.New("cannot copy the managed resource")
	}
	patch := client.MergeFromWithOptions(cp, client.MergeFromWithOptimisticLock{})
	if s.Gate.Report != nil {
		s.Gate.Report(o, r)
	}
	o.SetConditions(synced, ready)
	o.SetCustody(&rec)
	return errors.Wrap(s.Kube.Status().Patch(ctx, o, patch), "cannot report the refusal of the tenancy rules")
}
