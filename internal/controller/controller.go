// Package controller sets up all of the provider's controllers.
package controller

import (
	"context"
	"sync"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucket"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucketaccess"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucketlifecycle"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/config"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/tier"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/upgrade"
)

// setups are the gated setup functions of every controller.
var setups = []func(ctrl.Manager, options.Options) error{
	config.SetupGated,
	bucket.SetupGated,
	bucketaccess.SetupGated,
	bucketlifecycle.SetupGated,
	tier.SetupGated,
}

// SetupGated registers every controller to start once the CRDs it needs are
// established.
func SetupGated(mgr ctrl.Manager, o options.Options) error {
	if o.Upgrade == nil {
		o.Upgrade = once(func() error {
			return upgrade.Run(context.Background(), custody.Store{Kube: mgr.GetClient(), Reader: mgr.GetAPIReader()})
		})
	}
	for _, setup := range setups {
		if err := setup(mgr, o); err != nil {
			return err
		}
	}
	return nil
}

// once returns a function that runs fn until it succeeds, retrying a few
// times, and then answers nil without running it again. Every gated setup
// calls it; the first to run waits for it, the others for the first.
func once(fn func() error) func() error {
	var mu sync.Mutex
	done := false
	return func() error {
		mu.Lock()
		defer mu.Unlock()
		var err error
		for try := 0; !done && try < 10; try++ {
			if err = fn(); err == nil {
				done = true
				break
			}
			time.Sleep(2 * time.Second)
		}
		if done {
			return nil
		}
		return err
	}
}
