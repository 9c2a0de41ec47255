package rustfs

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// maxDeploymentID bounds the length of an accepted deployment ID. RustFS
// sends a 36-character UUID (docs/rustfs-wire.md §15.3).
const maxDeploymentID = 128

// infoJSON is the part of the admin info answer the client reads: the
// deployment ID inside "info" (1.0.0-beta.9 and later) or at the top level
// (earlier releases, and madmin-compatible servers); docs/rustfs-wire.md
// §15.3, §15.4. Every other field is ignored.
type infoJSON struct {
	DeploymentID *string `json:"deploymentID"`
	Info         *struct {
		DeploymentID *string `json:"deploymentID"`
	} `json:"info"`
}

// DeploymentID asks the admin info call which deployment the endpoint
// belongs to (docs/rustfs-wire.md §15). It returns "" and no error when the
// answer carries no ID, as RustFS before 1.0.0-beta.5 answers. It needs the
// admin:ServerInfo permission; without it the error satisfies IsInfoRefused.
func (c *Client) DeploymentID(ctx context.Context) (string, error) {
	resp, err := c.do(ctx, request{op: OpServerInfo, method: http.MethodGet, path: adminPrefix + "/info"})
	if err != nil {
		return "", errors.Wrap(err, "cannot get server info")
	}
	id, err := parseDeploymentID(resp.body)
	return id, errors.Wrap(err, "cannot get server info")
}

// parseDeploymentID reads the deployment ID from an admin info body. A
// present ID must pass validDeploymentID; the server's text is never echoed.
func parseDeploymentID(body []byte) (string, error) {
	var in infoJSON
	if err := json.Unmarshal(body, &in); err != nil {
		return "", errors.Wrap(err, "cannot decode server info")
	}
	id := in.DeploymentID
	if in.Info != nil && in.Info.DeploymentID != nil {
		id = in.Info.DeploymentID
	}
	if id == nil || *id == "" {
		return "", nil
	}
	if !validDeploymentID(*id) {
		return "", errors.Errorf("server info has a malformed deployment ID (%d bytes; want 1-%d of A-Z a-z 0-9 . _ -)",
			len(*id), maxDeploymentID)
	}
	return *id, nil
}

// validDeploymentID accepts 1-128 characters of [A-Za-z0-9._-], which
// covers RustFS's and MinIO's UUIDs and keeps an identity safe to show.
func validDeploymentID(s string) bool {
	if len(s) == 0 || len(s) > maxDeploymentID {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
		default:
			return false
		}
	}
	return true
}
