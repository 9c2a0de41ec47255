package rustfs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// An IAMAPI manages the regular IAM users and canned policies that bound
// service accounts (docs/rustfs-wire.md §20). Bodies are plain JSON on
// /rustfs/admin/v3.
type IAMAPI interface {
	EnsureParentUser(ctx context.Context, p ParentUser) (ParentUserState, error)
	EnsureUser(ctx context.Context, name string) (bool, error)
	UserInfo(ctx context.Context, name string) (UserInfo, error)
	EnsureCannedPolicy(ctx context.Context, name string, p Policy) (bool, error)
	CannedPolicy(ctx context.Context, name string) (Policy, error)
	EnsureUserPolicy(ctx context.Context, user, policy string) (bool, error)
}

var _ IAMAPI = &Client{}

// UserInfo is what RustFS says about a regular user (docs/rustfs-wire.md
// §20.3). RustFS never returns a user's secret key here.
type UserInfo struct {
	Status   string   // "enabled" or "disabled"
	Policies []string // the canned policies mapped to the user, in mapping order
	MemberOf []string // groups; their policies add to the user's
}

// Enabled reports whether the user's key and its service accounts may act.
func (i UserInfo) Enabled() bool { return i.Status == "enabled" }

// userInfoJSON is madmin UserInfo (docs/rustfs-wire.md §20.3); the optional
// secretKey is deliberately not read.
type userInfoJSON struct {
	PolicyName string   `json:"policyName"`
	Status     string   `json:"status"`
	MemberOf   []string `json:"memberOf"`
}

func userQuery(name string) url.Values { return url.Values{"accessKey": {name}} }

// UserInfo reads a regular user (docs/rustfs-wire.md §20.3). An unknown user
// gives an error that satisfies IsUserNotFound.
func (c *Client) UserInfo(ctx context.Context, name string) (UserInfo, error) {
	resp, err := c.do(ctx, request{op: OpUserInfo, method: http.MethodGet, path: adminPrefix + "/user-info", query: userQuery(name)})
	if err != nil {
		return UserInfo{}, errors.Wrapf(err, "cannot get user %q", name)
	}
	var in userInfoJSON
	if err := json.Unmarshal(resp.body, &in); err != nil {
		return UserInfo{}, errors.Errorf("cannot get user %q: cannot decode the answer", name)
	}
	out := UserInfo{Status: clip(in.Status)}
	for _, p := range strings.Split(in.PolicyName, ",") {
		if strings.TrimSpace(p) != "" {
			out.Policies = append(out.Policies, clip(p))
		}
	}
	for _, g := range in.MemberOf {
		out.MemberOf = append(out.MemberOf, clip(g))
	}
	return out, nil
}

// EnsureUser creates the regular user name, enabled, with a secret key from
// crypto/rand that is sent once and never kept (docs/rustfs-wire.md §20.2).
// An existing user is left alone: RustFS's add-user would replace its secret
// key and status, so the client asks first. It reports whether it created
// the user.
func (c *Client) EnsureUser(ctx context.Context, name string) (bool, error) {
	_, created, err := c.ensureUser(ctx, name, NewSecretKey)
	return created, err
}

// ensureUser returns the user's info, adding the user with a secret key
// from newSecret when RustFS does not know it.
func (c *Client) ensureUser(ctx context.Context, name string, newSecret func() (string, error)) (UserInfo, bool, error) {
	info, err := c.UserInfo(ctx, name)
	if !IsUserNotFound(err) {
		return info, false, err
	}
	if err := c.addUser(ctx, name, newSecret); err != nil {
		return UserInfo{}, false, err
	}
	return UserInfo{Status: "enabled"}, true, nil
}

// addUserJSON is AddOrUpdateUserReq (docs/rustfs-wire.md §20.2). Both keys
// are required by RustFS.
type addUserJSON struct {
	SecretKey string `json:"secretKey"`
	Status    string `json:"status"`
}

// addUser adds an enabled user with a fresh secret key, which is dropped
// after the request.
func (c *Client) addUser(ctx context.Context, name string, newSecret func() (string, error)) error {
	if err := ValidateUserName(name); err != nil {
		return errors.Wrapf(err, "cannot add user %q", name)
	}
	sk, err := newSecret()
	if err != nil {
		return errors.Wrapf(err, "cannot add user %q", name)
	}
	body, err := json.Marshal(addUserJSON{SecretKey: sk, Status: "enabled"})
	if err != nil {
		return errors.Wrapf(err, "cannot add user %q", name)
	}
	_, err = c.do(ctx, request{op: OpAddUser, method: http.MethodPut, path: adminPrefix + "/add-user", query: userQuery(name),
		body: body, contentType: jsonType, secrets: []string{sk}})
	return errors.Wrapf(err, "cannot add user %q", name)
}

// EnsureUserPolicy makes policy the only canned policy mapped to user
// (docs/rustfs-wire.md §20.5): it reads the user and, unless the mapping is
// already exactly that policy, replaces the mapping, which also removes any
// policy attached by hand. It reports whether it wrote. The policy must
// exist.
func (c *Client) EnsureUserPolicy(ctx context.Context, user, policy string) (bool, error) {
	info, err := c.UserInfo(ctx, user)
	if err != nil {
		return false, err
	}
	return c.ensureMapping(ctx, user, policy, info)
}

func (c *Client) ensureMapping(ctx context.Context, user, policy string, info UserInfo) (bool, error) {
	if err := validatePolicyName(policy); err != nil {
		return false, errors.Wrapf(err, "cannot map a policy to user %q", user)
	}
	if slices.Equal(info.Policies, []string{policy}) {
		return false, nil
	}
	q := url.Values{"policyName": {policy}, "userOrGroup": {user}, "isGroup": {"false"}}
	_, err := c.do(ctx, request{op: OpSetUserPolicy, method: http.MethodPut, path: adminPrefix + "/set-user-or-group-policy", query: q})
	if err != nil {
		return false, errors.Wrapf(err, "cannot map policy %q to user %q", policy, user)
	}
	return true, nil
}
