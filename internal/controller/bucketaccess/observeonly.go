package bucketaccess

import (
	"fmt"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
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

// absent returns err, the outcome of reading a key that is not found
// when err is nil: nil, so that the key is created, unless cr is
// observe-only (adoptsNothing).
func absent(cr *v1alpha1.BucketAccess, err error) error {
	if err != nil || !options.ObserveOnly(cr) {
		return err
	}
	return adoptsNothing(cr)
}

// adoptsNothing reports, for an observe-only BucketAccess whose key does
// not exist, that the provider creates no key and adopts no other one.
func adoptsNothing(cr *v1alpha1.BucketAccess) error {
	msg := fmt.Sprintf("managementPolicies allow no write: no key with access key %q exists, and the provider neither creates one "+
		"nor adopts another; add Create to managementPolicies to create it", accessKey(cr))
	cr.SetConditions(memo.Unready(v1alpha1.ReasonObserveOnly, msg))
	return errors.New(msg)
}

// readyIfObserved makes a BucketAccess whose key exists Ready when it is
// up to date, or observe-only: then no write will ever make it up to
// date, and it is Ready from what it observed.
func readyIfObserved(cr *v1alpha1.BucketAccess, upToDate bool) {
	if upToDate || options.ObserveOnly(cr) {
		cr.SetConditions(xpv2.Available())
	}
}
