package custody

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

type conditioned interface {
	GetCondition(xpv2.ConditionType) xpv2.Condition
}

// Ready reports whether o has the condition Ready=True.
func Ready(o client.Object) bool {
	c, ok := o.(conditioned)
	return ok && c.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue
}

// BecameReady passes objects that are Ready when first seen, and updates
// that make an object Ready: a reference to it then resolves.
func BecameReady() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(e event.CreateEvent) bool { return Ready(e.Object) },
		UpdateFunc:  func(e event.UpdateEvent) bool { return !Ready(e.ObjectOld) && Ready(e.ObjectNew) },
		DeleteFunc:  func(event.DeleteEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
	}
}
