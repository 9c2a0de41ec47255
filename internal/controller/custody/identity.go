package custody

import (
	"context"

	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// An Identify returns the identity of the RustFS deployment a connection
// reaches (rule 4), and its alias: the endpoint form of the same RustFS,
// under which records made while RustFS refused the admin info call were
// kept ("" when identity is that form). Two connections with the same
// identity reach the same RustFS.
type Identify func(ctx context.Context, c *connection.Connection) (identity, alias string, err error)

// ByEndpoint identifies a RustFS by its normalised endpoint alone.
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
