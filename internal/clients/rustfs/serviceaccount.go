package rustfs

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A ServiceAccountAPI manages RustFS service accounts through the admin API
// (docs/rustfs-wire.md §16). Bodies are plain JSON on /rustfs/admin/v3.
type ServiceAccountAPI interface {
	AddServiceAccount(ctx context.Context, a NewServiceAccount) error
	ServiceAccountInfo(ctx context.Context, accessKey string) (ServiceAccountInfo, error)
	UpdateServiceAccount(ctx context.Context, accessKey string, u ServiceAccountUpdate) error
	DeleteServiceAccount(ctx context.Context, accessKey string) error
}

var _ ServiceAccountAPI = &Client{}

// A NewServiceAccount is a service account to create. The provider chooses
// both keys. String, GoString and Format never show SecretKey.
type NewServiceAccount struct {
	AccessKey   string // DeriveAccessKey
	SecretKey   string // NewSecretKey; never printed
	Policy      Policy // the session policy; required (see SessionPolicy)
	Name        string // optional: at most 32 of A-Z a-z 0-9 _ -, starting with a letter
	Description string // optional: at most 256 bytes
	TargetUser  string // optional parent user; "" means the caller's identity
}

// String returns a description without the secret key.
func (a NewServiceAccount) String() string {
	return fmt.Sprintf("rustfs.NewServiceAccount{AccessKey:%q SecretKey:%s Name:%q TargetUser:%q Statements:%d}",
		a.AccessKey, redactedIfSet(a.SecretKey), a.Name, a.TargetUser, len(a.Policy.Statements))
}

// GoString returns the same redacted description as String.
func (a NewServiceAccount) GoString() string { return a.String() }

// Format prints the redacted description for every verb.
func (a NewServiceAccount) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, a.String()) }

// A ServiceAccountUpdate changes a service account. A nil Policy and an empty
// SecretKey leave those unchanged; at least one must be set. String, GoString
// and Format never show SecretKey.
type ServiceAccountUpdate struct {
	Policy    *Policy // the new session policy (see SessionPolicy)
	SecretKey string  // the new secret key (NewSecretKey); never printed
}

// String returns a description without the secret key.
func (u ServiceAccountUpdate) String() string {
	return fmt.Sprintf("rustfs.ServiceAccountUpdate{Policy:%t SecretKey:%s}", u.Policy != nil, redactedIfSet(u.SecretKey))
}

// GoString returns the same redacted description as String.
func (u ServiceAccountUpdate) GoString() string { return u.String() }

// Format prints the redacted description for every verb.
func (u ServiceAccountUpdate) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, u.String()) }

// ServiceAccountInfo is what RustFS says about a service account
// (docs/rustfs-wire.md §16.4). It never holds the secret key.
type ServiceAccountInfo struct {
	ParentUser    string
	Status        string // "on" or "off"
	ImpliedPolicy bool   // true: no session policy; the account has its parent's access
	Policy        string // the effective policy as RustFS re-serialised it; compare with PolicyMatches
	Name          string
	Description   string
	Expiration    *time.Time
}

// PolicyMatches reports whether the account's session policy grants exactly
// want: false when the account has no session policy (ImpliedPolicy) or its
// policy cannot be read.
func (i ServiceAccountInfo) PolicyMatches(want Policy) bool {
	if i.ImpliedPolicy {
		return false
	}
	got, err := ParsePolicy(i.Policy)
	return err == nil && EqualPolicies(want, got)
}

func serviceAccountQuery(accessKey string) url.Values { return url.Values{"accessKey": {accessKey}} }

// addServiceAccountJSON is AddServiceAccountReq (docs/rustfs-wire.md §16.2),
// NewServiceAccount with wire names. The policy is always sent: a missing or
// null policy means none.
type addServiceAccountJSON struct {
	AccessKey   string `json:"accessKey"`
	SecretKey   string `json:"secretKey"`
	Policy      Policy `json:"policy"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	TargetUser  string `json:"targetUser,omitempty"`
}

// AddServiceAccount creates a service account with the given keys and session
// policy (docs/rustfs-wire.md §16.2). It checks the request locally first
// (key lengths, name, a session policy with Version and statements) and sends
// nothing when it is invalid. An existing access key gives an error that
// satisfies IsAccessKeyInUse.
func (c *Client) AddServiceAccount(ctx context.Context, a NewServiceAccount) error {
	if err := validateNewServiceAccount(a); err != nil {
		return errors.Wrapf(err, "cannot add service account %q", a.AccessKey)
	}
	body, err := json.Marshal(addServiceAccountJSON(a))
	if err != nil {
		return errors.Wrap(err, "cannot encode service account")
	}
	resp, err := c.do(ctx, request{op: OpAddServiceAccount, method: http.MethodPut, path: adminPrefix + "/add-service-account", body: body, contentType: jsonType,
		secrets: []string{a.SecretKey}})
	if err != nil {
		return errors.Wrapf(err, "cannot add service account %q", a.AccessKey)
	}
	var out struct {
		Credentials struct {
			AccessKey string `json:"accessKey"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(resp.body, &out); err != nil {
		return errors.Errorf("cannot add service account %q: cannot decode the answer", a.AccessKey)
	}
	if out.Credentials.AccessKey != a.AccessKey {
		return errors.Errorf("cannot add service account %q: RustFS answered with another access key", a.AccessKey)
	}
	return nil
}

// infoServiceAccountJSON is InfoServiceAccountResp (docs/rustfs-wire.md §16.4).
type infoServiceAccountJSON struct {
	ParentUser    string     `json:"parentUser"`
	AccountStatus string     `json:"accountStatus"`
	ImpliedPolicy bool       `json:"impliedPolicy"`
	Policy        string     `json:"policy"`
	Name          string     `json:"name"`
	Description   string     `json:"description"`
	Expiration    *time.Time `json:"expiration"`
}

// ServiceAccountInfo reads a service account (docs/rustfs-wire.md §16.4). An
// unknown account gives an error that satisfies IsServiceAccountNotFound.
func (c *Client) ServiceAccountInfo(ctx context.Context, accessKey string) (ServiceAccountInfo, error) {
	resp, err := c.do(ctx, request{op: OpServiceAccountInfo, method: http.MethodGet, path: adminPrefix + "/info-service-account",
		query: serviceAccountQuery(accessKey)})
	if err != nil {
		return ServiceAccountInfo{}, errors.Wrapf(err, "cannot get service account %q", accessKey)
	}
	info, err := parseServiceAccountInfo(resp.body)
	return info, errors.Wrapf(err, "cannot get service account %q", accessKey)
}

// parseServiceAccountInfo decodes an info answer. Names and the parent are
// clipped and made valid UTF-8; the server's text is never echoed in errors.
func parseServiceAccountInfo(body []byte) (ServiceAccountInfo, error) {
	var in infoServiceAccountJSON
	if err := json.Unmarshal(body, &in); err != nil {
		return ServiceAccountInfo{}, errors.New("cannot decode service account info")
	}
	return ServiceAccountInfo{ParentUser: clip(in.ParentUser), Status: clip(in.AccountStatus), ImpliedPolicy: in.ImpliedPolicy,
		Policy: in.Policy, Name: clip(in.Name), Description: clip(in.Description), Expiration: in.Expiration}, nil
}

// updateServiceAccountJSON is UpdateServiceAccountReq (docs/rustfs-wire.md
// §16.3), with only the keys the provider changes.
type updateServiceAccountJSON struct {
	NewPolicy    *Policy `json:"newPolicy,omitempty"`
	NewSecretKey string  `json:"newSecretKey,omitempty"`
}

// UpdateServiceAccount replaces the session policy, the secret key or both
// (docs/rustfs-wire.md §16.3; RustFS answers 204). The old secret key stops
// working at once. A policy must have a Version and statements: RustFS
// ignores a policy without Version and reads {} as "remove the session
// policy", so such a policy is refused here and nothing is sent.
func (c *Client) UpdateServiceAccount(ctx context.Context, accessKey string, u ServiceAccountUpdate) error {
	if err := validateUpdate(u); err != nil {
		return errors.Wrapf(err, "cannot update service account %q", accessKey)
	}
	body, err := json.Marshal(updateServiceAccountJSON{NewPolicy: u.Policy, NewSecretKey: u.SecretKey})
	if err != nil {
		return errors.Wrap(err, "cannot encode service account update")
	}
	_, err = c.do(ctx, request{op: OpUpdateSA, method: http.MethodPost, path: adminPrefix + "/update-service-account",
		query: serviceAccountQuery(accessKey), body: body, contentType: jsonType, secrets: []string{u.SecretKey}})
	return errors.Wrapf(err, "cannot update service account %q", accessKey)
}

// DeleteServiceAccount deletes a service account; its keys stop working at
// once (docs/rustfs-wire.md §16.6). Deleting an account that does not exist
// succeeds. RustFS answers the same 400 "service account not exist" for an
// unknown account and for one the caller may not delete, so on that answer the
// client asks info, which reports an unknown account before any permission
// check (docs/rustfs-wire.md §16.4), and succeeds only when the account is really gone.
func (c *Client) DeleteServiceAccount(ctx context.Context, accessKey string) error {
	_, err := c.do(ctx, request{op: OpDeleteSA, method: http.MethodDelete, path: adminPrefix + "/delete-service-account",
		query: serviceAccountQuery(accessKey)})
	if err == nil || !isServiceAccountNotExist(err) {
		return errors.Wrapf(err, "cannot delete service account %q", accessKey)
	}
	_, ierr := c.ServiceAccountInfo(ctx, accessKey)
	switch {
	case IsServiceAccountNotFound(ierr):
		return nil
	case ierr == nil:
		return errors.Errorf("cannot delete service account %q: it exists, but RustFS refuses to delete it for this credential (it needs admin:RemoveServiceAccount or to be the account's parent)", accessKey)
	}
	return errors.Wrapf(err, "cannot delete service account %q", accessKey)
}
