package bucketaccess

import (
	"fmt"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
)

// readOnly returns conn, with a read-only client configuration when cr is
// observe-only (options.ReadOnly): its client refuses every write.
func readOnly(cr *v1alpha1.BucketAccess, conn *connection.Connection) *connection.Connection {
	if !options.ObserveOnly(cr) {
		return conn
	}
	ro := *conn
	ro.Config.ReadOnly = true
	return &ro
}

// adoptsNothing reports, for an observe-only BucketAccess whose key does
// not exist, that the provider creates no key and adopts no other one.
func adoptsNothing(cr *v1alpha1.BucketAccess) error {
	msg := fmt.Sprintf("managementPolicies allow no write: no key with access key %q exists, and the provider neither creates one "+
		"nor adopts another; add Create to managementPolicies to create it", accessKey(cr))
	cr.SetConditions(custody.Unready(v1alpha1.ReasonObserveOnly, msg))
	return errors.New(msg)
}

// readyIfObserved makes an observe-only BucketAccess whose key exists
// Ready from what it observed: no write will ever make it up to date.
func readyIfObserved(cr *v1alpha1.BucketAccess) {
	if options.ObserveOnly(cr) {
		cr.SetConditions(xpv2.Available())
	}
}
