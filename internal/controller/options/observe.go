package options

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// A Policied resource has management policies.
type Policied interface {
	GetManagementPolicies() xpv2.ManagementPolicies
}

// ObserveOnly reports whether r's management policies allow no write to
// RustFS: they include none of Create, Update, Delete and '*'.
// LateInitialize writes only the resource's spec.
func ObserveOnly(r Policied) bool {
	for _, p := range r.GetManagementPolicies() {
		switch p {
		case xpv2.ManagementActionAll, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate, xpv2.ManagementActionDelete:
			return false
		}
	}
	return true
}

// ReadOnly returns newClient, made to build read-only clients
// (rustfs.Config.ReadOnly) when r is ObserveOnly. Every kind's connector
// builds its RustFS client through it, so that "Observe sends no write"
// holds in one place, the client, whatever a controller attempts.
func ReadOnly[C any](r Policied, newClient func(rustfs.Config) (C, error)) func(rustfs.Config) (C, error) {
	if !ObserveOnly(r) {
		return newClient
	}
	return func(c rustfs.Config) (C, error) {
		c.ReadOnly = true
		return newClient(c)
	}
}
