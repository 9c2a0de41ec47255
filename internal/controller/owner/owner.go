// Package owner decides which of several managed resources that would write
// the same RustFS object (a tier name, a bucket's lifecycle configuration)
// on the same endpoint is allowed to: the oldest one. The others report a
// duplicate and write nothing; when the owner is deleted, the next oldest
// takes over.
package owner

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// An EndpointFn returns the normalised RustFS endpoint a resource manages.
type EndpointFn func(ctx context.Context, mg resource.ModernManaged) (string, error)

// Find returns the owner among self and peers: the oldest resource, not
// being deleted, whose endpoint is endpoint (self's). Peers may include
// self. Ties on creation time are broken by namespace, then name.
func Find(ctx context.Context, self resource.ModernManaged, endpoint string, peers []resource.ModernManaged, endpointOf EndpointFn) resource.ModernManaged {
	owner := self
	for _, p := range peers {
		if p.GetUID() == self.GetUID() || p.GetDeletionTimestamp() != nil || !older(p, owner) {
			continue
		}
		e, err := endpointOf(ctx, p)
		if err != nil {
			// A peer whose ProviderConfig cannot be read writes nothing
			// either, so it cannot own anything.
			continue
		}
		if e == endpoint {
			owner = p
		}
	}
	return owner
}

func older(a, b resource.ModernManaged) bool {
	ta, tb := a.GetCreationTimestamp(), b.GetCreationTimestamp()
	if !ta.Equal(&tb) {
		return ta.Before(&tb)
	}
	if a.GetNamespace() != b.GetNamespace() {
		return a.GetNamespace() < b.GetNamespace()
	}
	return a.GetName() < b.GetName()
}
