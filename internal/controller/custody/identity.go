package custody

import (
	"context"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// An Identify returns the identity of the RustFS deployment a connection
// reaches (docs/multi-tenancy.md, rule 4), and its alias: the endpoint form
// of the same RustFS, under which records made while RustFS refused the
// admin info call were kept ("" when identity is that form). Two
// connections with the same identity reach the same RustFS.
type Identify func(ctx context.Context, c *connection.Connection) (identity, alias string, err error)

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
		if err != nil || !id.IsDeployment() {
			return string(id), "", err
		}
		alias, err := rustfs.EndpointIdentity(c.Config.Endpoint)
		if err != nil {
			return string(id), "", nil
		}
		return string(id), string(alias), nil
	}
}

// ByEndpoint identifies a RustFS by its normalised endpoint alone. Unit
// tests of one RustFS use it, so that their request counts do not depend
// on the admin info call; the provider uses ByClient.
func ByEndpoint(_ context.Context, c *connection.Connection) (string, string, error) {
	return "endpoint:" + c.Endpoint, "", nil
}

// Proof returns the proof that a read through c, which succeeded, gives
// for object: the identity c reaches and c's kind of ProviderConfig.
func (i Identify) Proof(ctx context.Context, c *connection.Connection, object string) (Proof, error) {
	id, alias, err := i(ctx, c)
	if err != nil {
		return Proof{}, err
	}
	return Proof{Identity: id, Alias: alias, Config: c.Target.Kind, Object: object}, nil
}
