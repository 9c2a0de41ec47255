// Package controller sets up all of the provider's controllers.
package controller

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucket"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucketaccess"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucketlifecycle"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/config"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/tier"
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
	for _, setup := range setups {
		if err := setup(mgr, o); err != nil {
			return err
		}
	}
	return nil
}
