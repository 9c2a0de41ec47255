package custody

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

const (
	errResolve   = "cannot resolve the ProviderConfig"
	errNewClient = "cannot create the RustFS client"
)

// Dial opens s's connection through g (Open, so a *Refusal of the tenancy
// rules comes back wrapped and no Secret is read) and makes the RustFS
// client newClient builds for it.
func Dial[C any](ctx context.Context, g *Gate, s Subject, n Names, newClient func(rustfs.Config) (C, error)) (*connection.Connection, C, error) {
	var none C
	conn, err := g.Open(ctx, s, n)
	if err != nil {
		return nil, none, errors.Wrap(err, errResolve)
	}
	cl, err := newClient(conn.Config)
	if err != nil {
		return nil, none, errors.Wrap(err, errNewClient)
	}
	return conn, cl, nil
}
