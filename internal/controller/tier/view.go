package tier

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/tierview"
)

// changeBuffer is how many refreshed lists with changes may wait for the
// controller. One event carries every change of one list, so a full buffer
// means the controller is not running; a change dropped then is still seen
// at the Tier's next poll.
const changeBuffer = 16

// share makes every Tier reconcile of the manager list tiers through one
// tierview.View, refreshed once per poll interval and invalidated by the
// controller's writes, unless o.NaiveTierList asks for a list per
// reconcile. It returns the source that enqueues the Tiers naming a tier
// that a refreshed list shows changed or removed out of band.
// The View runs as a manager Runnable (added with add) that forgets idle
// endpoints.
func share(add func(manager.Runnable) error, o options.Options, c *connector, log logging.Logger) (source.Source, error) {
	changes := make(chan event.TypedGenericEvent[[]tierview.Change], changeBuffer)
	src := source.Channel(changes, handler.TypedEnqueueRequestsFromMapFunc(tiersNaming(c.kube, log)))
	if o.NaiveTierList {
		return src, nil
	}
	v := tierview.New(viewList(c.newClient), o.PollInterval, tierview.WithNotify(send(changes, log)))
	if err := add(v); err != nil {
		return nil, errors.Wrap(err, "cannot add the shared tier list to the manager")
	}
	c.listTiers, c.invalidate = v.List, v.Invalidate
	return src, nil
}

// viewList lists tiers with a client for the configuration.
func viewList(newClient func(rustfs.Config) (rustfs.TierAPI, error)) tierview.ListFunc {
	return func(ctx context.Context, c rustfs.Config) ([]rustfs.Tier, error) {
		api, err := newClient(c)
		if err != nil {
			return nil, errors.Wrap(err, errNewClient)
		}
		return api.ListTiers(ctx)
	}
}

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
