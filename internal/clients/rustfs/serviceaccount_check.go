package rustfs

import (
	"net/http"
	"strings"
	"unicode"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// IsServiceAccountNotFound reports whether err says the service account does
// not exist: info and update answer 404 NoSuchResource "service account '…'
// does not exist" (docs/rustfs-wire.md §16.3, §16.4). DeleteServiceAccount
// already treats an unknown account as deleted.
func IsServiceAccountNotFound(err error) bool {
	e, ok := apiError(err)
	return ok && e.Status == http.StatusNotFound && e.Code == "NoSuchResource"
}

// IsAccessKeyInUse reports whether err says a user, service account or STS
// key already has the access key: 400 InvalidArgument "access key is already
// in use" (docs/rustfs-wire.md §16.2 step 10).
func IsAccessKeyInUse(err error) bool {
	e, ok := apiError(err)
	return ok && e.Code == "InvalidArgument" && strings.Contains(e.Message, "access key is already in use")
}

// isServiceAccountNotExist matches delete's answer for an unknown account or
// one the caller may not delete: 400 InvalidRequest "service account not
// exist" (docs/rustfs-wire.md §16.6).
func isServiceAccountNotExist(err error) bool {
	e, ok := apiError(err)
	return ok && e.Status == http.StatusBadRequest && e.Code == "InvalidRequest" &&
		strings.Contains(e.Message, "service account not exist")
}

// validateNewServiceAccount checks what RustFS would refuse, and a missing
// session policy, which RustFS would accept as full access
// (docs/rustfs-wire.md §16.2).
func validateNewServiceAccount(a NewServiceAccount) error {
	if err := validateAccessKey(a.AccessKey); err != nil {
		return err
	}
	if err := validateSecretKey(a.SecretKey); err != nil {
		return err
	}
	if err := validateName(a.Name); err != nil {
		return err
	}
	if len(a.Description) > 256 {
		return errors.Errorf("description is %d bytes; RustFS accepts at most 256", len(a.Description))
	}
	return validateSessionPolicy(a.Policy)
}

func validateUpdate(u ServiceAccountUpdate) error {
	if u.Policy == nil && u.SecretKey == "" {
		return errors.New("nothing to update: set a policy, a secret key or both")
	}
	if u.SecretKey != "" {
		if err := validateSecretKey(u.SecretKey); err != nil {
			return err
		}
	}
	if u.Policy != nil {
		return validateSessionPolicy(*u.Policy)
	}
	return nil
}

// validateAccessKey: 3-128 bytes, no whitespace (RustFS, docs/rustfs-wire.md §16.2), no '/'
// (it would break the SigV4 credential scope).
func validateAccessKey(ak string) error {
	switch {
	case len(ak) < minAccessKey || len(ak) > maxAccessKey:
		return errors.Errorf("access key is %d bytes; RustFS accepts %d-%d", len(ak), minAccessKey, maxAccessKey)
	case strings.ContainsFunc(ak, unicode.IsSpace), strings.Contains(ak, "/"):
		return errors.New("access key must not contain whitespace or '/'")
	}
	return nil
}

// validateSecretKey: 8-40 bytes (add takes at most 40, docs/rustfs-wire.md §16.2). The length is
// reported, never the key.
func validateSecretKey(sk string) error {
	if len(sk) < minSecretKey || len(sk) > maxSecretKey {
		return errors.Errorf("secret key is %d bytes; RustFS accepts %d-%d", len(sk), minSecretKey, maxSecretKey)
	}
	return nil
}

// validateName: empty, or at most 32 of A-Z a-z 0-9 _ - starting with a
// letter (docs/rustfs-wire.md §16.2 step 4).
func validateName(name string) error {
	if name == "" {
		return nil
	}
	ok := len(name) <= 32 && isASCIILetter(name[0])
	for i := 1; ok && i < len(name); i++ {
		c := name[i]
		ok = isASCIILetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	if !ok {
		return errors.Errorf("name %q must be at most 32 characters of A-Z, a-z, 0-9, '_', '-' and start with a letter", name)
	}
	return nil
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// validateSessionPolicy refuses a policy RustFS would ignore or read as "no
// session policy" (docs/rustfs-wire.md §16.2 step 5, §16.3): it needs Version 2012-10-17 and at
// least one statement, and must fit RustFS's size limit.
func validateSessionPolicy(p Policy) error {
	if p.Version != PolicyVersion {
		return errors.Errorf("session policy Version is %q; want %q (RustFS ignores an update without it)", p.Version, PolicyVersion)
	}
	if len(p.Statements) == 0 {
		return errors.New("session policy has no statements; RustFS reads an empty policy as the parent's full access")
	}
	b, err := compactPolicy(p)
	if err != nil {
		return err
	}
	if len(b) > MaxSessionPolicySize {
		return errors.Errorf("session policy is %d bytes; RustFS stores at most %d", len(b), MaxSessionPolicySize)
	}
	return nil
}
