package rustfs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// IsUserNotFound reports whether err says the regular user does not exist:
// user-info answers 404 NoSuchResource "user '…' does not exist"
// (docs/rustfs-wire.md §20.3).
func IsUserNotFound(err error) bool {
	e, ok := apiError(err)
	return ok && e.Status == http.StatusNotFound && e.Code == "NoSuchResource"
}

// IsPolicyNotFound reports whether err says a canned policy does not exist:
// RustFS answers info-canned-policy, and a mapping to an unknown policy, with
// 500 InternalError "policy does not exist" (docs/rustfs-wire.md §20.5), which
// IsTransient alone would retry for ever.
func IsPolicyNotFound(err error) bool {
	e, ok := apiError(err)
	return ok && e.Status == http.StatusInternalServerError && e.Code == "InternalError" &&
		e.Message == "policy does not exist"
}

// policyInfoJSON is madmin PolicyInfo (docs/rustfs-wire.md §20.5); the dates
// are not read.
type policyInfoJSON struct {
	PolicyName string          `json:"policy_name"`
	Policy     json.RawMessage `json:"policy"`
}

// CannedPolicy reads a canned policy (docs/rustfs-wire.md §20.5). An unknown
// policy gives an error that satisfies IsPolicyNotFound.
func (c *Client) CannedPolicy(ctx context.Context, name string) (Policy, error) {
	resp, err := c.do(ctx, request{op: OpCannedPolicyInfo, method: http.MethodGet, path: adminPrefix + "/info-canned-policy",
		query: url.Values{"name": {name}}})
	if err != nil {
		return Policy{}, errors.Wrapf(err, "cannot get canned policy %q", name)
	}
	var in policyInfoJSON
	if err := json.Unmarshal(resp.body, &in); err != nil || len(in.Policy) == 0 {
		return Policy{}, errors.Errorf("cannot get canned policy %q: cannot decode the answer", name)
	}
	p, err := ParsePolicy(string(in.Policy))
	return p, c.scrub(errors.Wrapf(err, "cannot get canned policy %q", name))
}

// EnsureCannedPolicy stores p as the canned policy name unless RustFS
// already holds an equal policy (EqualPolicies): it reads first and writes
// only when the policy is missing or different. It reports whether it
// wrote. A policy without Version 2012-10-17 or without statements is
// refused locally: RustFS would refuse it, the second with a 500.
func (c *Client) EnsureCannedPolicy(ctx context.Context, name string, p Policy) (bool, error) {
	if err := validateCannedPolicy(name, p); err != nil {
		return false, errors.Wrapf(err, "cannot store canned policy %q", name)
	}
	got, err := c.CannedPolicy(ctx, name)
	switch {
	case err == nil && EqualPolicies(got, p):
		return false, nil
	case err != nil && !IsPolicyNotFound(err):
		return false, err
	}
	body, err := json.Marshal(p)
	if err != nil {
		return false, errors.Wrapf(err, "cannot encode canned policy %q", name)
	}
	_, err = c.do(ctx, request{op: OpAddCannedPolicy, method: http.MethodPut, path: adminPrefix + "/add-canned-policy",
		query: url.Values{"name": {name}}, body: body, contentType: jsonType})
	if err != nil {
		return false, errors.Wrapf(err, "cannot store canned policy %q", name)
	}
	return true, nil
}

func validateCannedPolicy(name string, p Policy) error {
	if err := validatePolicyName(name); err != nil {
		return err
	}
	if p.Version != PolicyVersion {
		return errors.Errorf("policy Version is %q; RustFS needs %q", p.Version, PolicyVersion)
	}
	if len(p.Statements) == 0 {
		return errors.New("policy has no statements; RustFS refuses it")
	}
	return nil
}

// validatePolicyName refuses names RustFS would refuse or misread: empty,
// whitespace (refused), ',' (the separator of a user's mapping), '/' (the
// name is a path in RustFS's store) and control characters.
func validatePolicyName(name string) error {
	if name == "" || !utf8.ValidString(name) || strings.ContainsAny(name, ",/") || strings.ContainsFunc(name, badNameRune) {
		return errors.Errorf("policy name %q must be non-empty UTF-8 without whitespace, control characters, ',' or '/'", name)
	}
	return nil
}

// ValidateUserName checks a regular user's name, which is also its access
// key (docs/rustfs-wire.md §20.2): 3-128 bytes of UTF-8 without whitespace,
// control characters, '=' or ',' (refused by RustFS) or '/' (it would break
// the SigV4 credential scope).
func ValidateUserName(name string) error {
	if len(name) < minAccessKey || len(name) > maxAccessKey {
		return errors.Errorf("user name %q is %d bytes; use %d-%d", name, len(name), minAccessKey, maxAccessKey)
	}
	if !utf8.ValidString(name) || strings.ContainsAny(name, "=,/") || strings.ContainsFunc(name, badNameRune) {
		return errors.Errorf("user name %q must be UTF-8 without whitespace, control characters, '=', ',' or '/'", name)
	}
	return nil
}

func badNameRune(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }
