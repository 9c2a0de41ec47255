package tier

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/tier/tierview"
)

// changeBuffer is how many refreshed lists with changes may wait for the
// controller. One event carries every change of one list, so a full buffer
// means the controller is not running; a change dropped then is still seen
// at the Tier's next poll.
const changeBuffer = 16

// A tierLister is how a Tier reconcile lists the tiers its connection
// sees, and forgets what it remembers of them after a write.
type tierLister interface {
	List(ctx context.Context, c *connection.Connection) ([]rustfs.Tier, error)
	Invalidate(c *connection.Connection)
}

// tierList returns the tier list of every Tier reconcile of the manager:
// one tierview.View, run by the manager (added with add), refreshed once
// per poll interval, invalidated by the controller's writes, which passes
// the tiers a refreshed list shows changed or removed out of band to
// notify. With o.NaiveTierList (benchmark wiring, never set by the
// provider as shipped) every reconcile lists the tiers itself instead.
// Both go through list.
func tierList(add func(manager.Runnable) error, o options.Options, list tierview.ListFunc,
	notify func([]tierview.Change)) (tierLister, error) {
	if o.NaiveTierList {
		return perReconcile(list), nil
	}
	v := tierview.New(list, o.PollInterval, tierview.WithNotify(notify))
	if err := add(v); err != nil {
		return nil, errors.Wrap(err, "cannot add the shared tier list to the manager")
	}
	return v, nil
}

// listWith lists tiers with a client for the configuration.
func listWith(newClient func(rustfs.Config) (rustfs.TierAPI, error)) tierview.ListFunc {
	return func(ctx context.Context, c rustfs.Config) ([]rustfs.Tier, error) {
		api, err := newClient(c)
		if err != nil {
			return nil, errors.Wrap(err, errNewClient)
		}
		return api.ListTiers(ctx)
	}
}

// perReconcile lists the tiers on every call and remembers nothing.
type perReconcile tierview.ListFunc

func (l perReconcile) List(ctx context.Context, c *connection.Connection) ([]rustfs.Tier, error) {
	return l(ctx, c.Config)
}

func (perReconcile) Invalidate(*connection.Connection) {}

// send returns a notify function that passes the changes of one refreshed
// list to the controller as one event, without ever blocking the request
// that saw them.
func send(ch chan<- event.TypedGenericEvent[[]tierview.Change], log logging.Logger) func([]tierview.Change) {
	return func(c []tierview.Change) {
		select {
		case ch <- event.TypedGenericEvent[[]tierview.Change]{Object: c}:
		default:
			log.Info("Dropped tier changes seen in a refreshed list; the Tiers see them at their next poll", "changes", len(c))
		}
	}
}

// tiersNaming maps the changes of a refreshed list to the Tiers that name a
// changed tier, in every namespace and on every RustFS: a Tier on another
// RustFS reconciles once for nothing, which is cheaper than deciding, for
// every Tier, which RustFS its ProviderConfig reaches. The field index of
// Tiers by tier name is what tracks which Tiers care about a tier, so the
// mapping holds no state of its own and forgets deleted Tiers with the
// cache.
func tiersNaming(kube client.Reader, log logging.Logger) handler.TypedMapFunc[[]tierview.Change, reconcile.Request] {
	return func(ctx context.Context, changes []tierview.Change) []reconcile.Request {
		seen := map[reconcile.Request]bool{}
		var out []reconcile.Request
		for _, c := range changes {
			l := &v1alpha1.TierList{}
			if err := kube.List(ctx, l, client.MatchingFields{indexTierName: c.Tier}); err != nil {
				log.Info("Cannot list the Tiers that name a changed tier", "tier", c.Tier, "error", err)
				continue
			}
			for _, r := range custody.Requests(l, "") {
				if !seen[r] {
					seen[r] = true
					out = append(out, r)
				}
			}
		}
		return out
	}
}
