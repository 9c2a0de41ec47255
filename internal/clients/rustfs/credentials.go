package rustfs

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"io"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Service-account key rules (docs/rustfs-wire.md §16.2 step 10, §16.3):
// RustFS accepts access keys of 3-128 bytes without whitespace and secret keys
// of at least 8 bytes (40 at most on add); its own keys are 20 characters of
// A-Z 0-9 and 40 characters of base64url.
const (
	// AccessKeyLength is the length of a derived access key.
	AccessKeyLength = 20
	// SecretKeyLength is the length of a generated secret key, RustFS's
	// maximum on add.
	SecretKeyLength = 40

	minAccessKey = 3
	maxAccessKey = 128
	minSecretKey = 8
	maxSecretKey = 40

	// accessKeyPrefix marks keys the provider derived, so operators can tell
	// them from RustFS's own in a list.
	accessKeyPrefix = "XP"
	accessKeyDomain = "provider-rustfs/service-account-access-key/v1"
)

// keyAlphabet is base32 in upper case without padding: A-Z and 2-7, a subset
// of RustFS's own access-key alphabet.
var keyAlphabet = base32.StdEncoding.WithPadding(base32.NoPadding)

// DeriveAccessKey returns the access key for a stable identity, such as a
// managed resource's namespace, name and UID: "XP" and 18 characters of
// A-Z 2-7 (90 bits of SHA-256 over the parts). The same parts always give the
// same key, and different parts (including a different split of the same
// text) give different keys.
func DeriveAccessKey(identity ...string) string {
	h := sha256.New()
	_, _ = io.WriteString(h, accessKeyDomain) // hash writes never fail
	for _, part := range identity {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		_, _ = h.Write(n[:])
		_, _ = io.WriteString(h, part)
	}
	return accessKeyPrefix + keyAlphabet.EncodeToString(h.Sum(nil))[:AccessKeyLength-len(accessKeyPrefix)]
}

// NewSecretKey returns a secret key of SecretKeyLength characters of base64url
// (A-Z a-z 0-9 - _) from 30 bytes of crypto/rand, the form RustFS generates.
func NewSecretKey() (string, error) {
	return newSecretKey(rand.Reader)
}

func newSecretKey(r io.Reader) (string, error) {
	b := make([]byte, SecretKeyLength*3/4)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", errors.Wrap(err, "cannot generate a secret key")
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
