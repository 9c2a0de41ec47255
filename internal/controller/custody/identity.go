package custody

import (
	"context"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// An Identify returns the identity of the RustFS deployment a connection
// reaches (docs/multi-tenancy.md, rule 4) and the normalised endpoint it
// reaches it at. Two connections with the same identity reach the same
// RustFS.
type Identify func(ctx context.Context, c *connection.Connection) (identity, endpoint string, err error)

// endpointPrefix starts the identity of a RustFS known only by its
// endpoint, as rustfs.Identity spells it.
const endpointPrefix = "endpoint:"

// ByClient identifies a RustFS through the client newClient makes for a
// connection: its admin info deployment ID, or its normalised endpoint when
// RustFS refuses that call (rustfs.Client.Identity). Clients share an
// rustfs.IdentityCache, so this costs one info request per configuration,
// not one per reconcile.
func ByClient[T rustfs.IdentityAPI](newClient func(rustfs.Config) (T, error)) Identify {
	return func(ctx context.Context, c *connection.Connection) (string, string, error) {
		api, err := newClient(c.Config)
		if err != nil {
			return "", "", err
		}
		id, err := api.Identity(ctx)
		if err != nil {
			return "", "", err
		}
		ep, err := rustfs.EndpointIdentity(c.Config.Endpoint)
		if err != nil {
			return string(id), "", nil
		}
		return string(id), string(ep)[len(endpointPrefix):], nil
	}
}

// ByEndpoint identifies a RustFS by its normalised endpoint alone. Unit
// tests of one RustFS use it, so that their request counts do not depend
// on the admin info call; the provider uses ByClient.
func ByEndpoint(_ context.Context, c *connection.Connection) (string, string, error) {
	return endpointPrefix + c.Endpoint, c.Endpoint, nil
}

// Proof returns the proof that a read through c, which succeeded, gives
// for object: the identity and endpoint c reaches and c's kind of
// ProviderConfig. Records made under the endpoint form of the identity,
// while RustFS refused the admin info call, are the same RustFS's.
func (i Identify) Proof(ctx context.Context, c *connection.Connection, object string) (Proof, error) {
	id, ep, err := i(ctx, c)
	if err != nil {
		return Proof{}, err
	}
	p := Proof{Identity: id, Endpoint: ep, Config: c.Target.Kind, Object: object}
	if ep != "" && id != endpointPrefix+ep {
		p.Alias = endpointPrefix + ep
	}
	return p, nil
}
