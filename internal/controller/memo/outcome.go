package memo

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// Unready returns a Ready=False condition with reason and msg.
func Unready(reason xpv2.ConditionReason, msg string) xpv2.Condition {
	return xpv2.Condition{
		Type: xpv2.TypeReady, Status: corev1.ConditionFalse, Reason: reason, Message: msg, LastTransitionTime: metav1.Now(),
	}
}

// Recorded applies a blocking failure an earlier write of s recorded: while
// it still applies to fingerprint (Blocked) and a write is needed (not
// upToDate), s shows it as not Ready and Recorded returns it as an error,
// so that the write is not attempted again. When no write is needed any
// more, the record is cleared.
func Recorded(ctx context.Context, kube client.Client, s Resource, fingerprint string, now time.Time, upToDate bool) error {
	b, blocked := Blocked(s, fingerprint, "", now)
	if _, ok := s.GetAnnotations()[BlockKey]; ok && upToDate {
		Delete(s, BlockKey)
		return Persist(ctx, kube, s, BlockKey)
	}
	if !blocked || upToDate {
		return nil
	}
	s.SetConditions(Unready(b.Reason, b.Message))
	return errors.New(b.Message)
}

// Refuse records b, a failure of a write of s that only a change of
// configuration can fix, shows it as not Ready, writes the record itself
// when persist (outside Create, whose status the reconciler writes) and
// returns a BlockError for it caused by cause.
func Refuse(ctx context.Context, kube client.Client, s Resource, b Block, persist bool, cause error) error {
	Set(s, BlockKey, b)
	s.SetConditions(Unready(b.Reason, b.Message))
	if persist {
		if err := Persist(ctx, kube, s, BlockKey); err != nil {
			return err
		}
	}
	return &BlockError{Message: b.Message, Cause: cause}
}

// A Resource is a managed resource whose conditions report a block.
type Resource interface {
	client.Object
	SetConditions(c ...xpv2.Condition)
}
