package bucketlifecycle

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// readyIfObserved makes an observe-only lifecycle Ready from what it
// observed: the bucket has a configuration. It never becomes up to date
// by a write, so Ready cannot wait for one; the difference, if any, is the
// reconcile's reported diff.
func readyIfObserved(cr *v1alpha1.BucketLifecycle, exists bool) {
	if exists && options.ObserveOnly(cr) {
		cr.SetConditions(xpv2.Available())
	}
}
