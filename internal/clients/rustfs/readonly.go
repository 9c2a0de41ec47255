package rustfs

import (
	"errors"
	"fmt"
)

// writes are the operations that change anything: on RustFS, or on a
// tier's remote (a verify writes and deletes a probe object there,
// docs/rustfs-wire.md §1.5). A read-only client refuses them.
var writes = map[string]bool{
	OpAddTier: true, OpEditTier: true, OpRemoveTier: true, OpVerifyTier: true,
	OpCreateBucket: true, OpPutVersioning: true, OpDeleteBucket: true,
	OpPutLifecycle: true, OpDeleteLifecycle: true,
	OpAddUser: true, OpSetUserPolicy: true, OpAddCannedPolicy: true,
	OpAddServiceAccount: true, OpUpdateSA: true, OpDeleteSA: true,
	OpSetQuota: true, OpClearQuota: true,
	OpUnknown: true,
}

// IsWrite reports whether the operation op changes anything.
func IsWrite(op string) bool { return writes[op] }

// ErrReadOnly is the error a read-only client returns for a write.
var ErrReadOnly = errors.New("the resource's managementPolicies allow no write (Observe only)")

// IsReadOnly reports whether err is a write a read-only client refused.
func IsReadOnly(err error) bool { return errors.Is(err, ErrReadOnly) }

// refuseWrite returns an error wrapping ErrReadOnly when the client is
// read-only and op writes. Nothing is sent, so RustFS sees no request.
func (c *Client) refuseWrite(op string) error {
	if !c.readOnly || !writes[op] {
		return nil
	}
	return fmt.Errorf("refused %s: %w", op, ErrReadOnly)
}
