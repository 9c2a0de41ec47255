package rustfstest

import (
	"net/http"
	"strings"
	"time"
	"unicode"
)

// User routes (docs/rustfs-wire.md §20.2-§20.4; rustfs/src/admin/handlers/user.rs,
// crates/iam/src/manager.rs). Each handler follows RustFS's order of checks.

func internalError(message string) *s3Error {
	return errf(http.StatusInternalServerError, "InternalError", message)
}

// addUser is AddUser::call (docs/rustfs-wire.md §20.2). It creates a user, or replaces an
// existing user's secret key and status (its policy mapping stays).
func (e *Emulator) addUser(c *call) *s3Error {
	ak, err := userAccessKey(c.r)
	if err != nil {
		return err
	}
	if err := c.adminBody(); err != nil {
		return err
	}
	secret, status, err := decodeAddUser(c.body)
	if err != nil {
		return err
	}
	if ak == e.root.accessKey {
		return invalidArgument("cannot create a user with the system access key")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.addUserTarget(c.who, ak); err != nil {
		return err
	}
	return e.createUser(c, ak, secret, status)
}

// addUserTarget checks the target name and the permission: a new name must
// not hold whitespace; a derived credential must not rewrite its parent; the
// caller needs admin:CreateUser (deny-only when it targets itself). Callers
// hold e.mu.
func (e *Emulator) addUserTarget(who *identity, ak string) *s3Error {
	if _, svc := e.accounts[ak]; svc {
		return notModelled("add-user with a service account's access key")
	}
	if _, exists := e.users[ak]; !exists && strings.ContainsFunc(ak, unicode.IsSpace) {
		return invalidArgument("access key contains spaces")
	}
	if who.parent != "" && who.parent == ak {
		return invalidArgument("cannot change the credentials of the parent user of this session")
	}
	self := ak == who.accessKey && who.parent == ""
	if self && !who.allowedSelf(actionCreateUser) || !self && !who.allowed(actionCreateUser) {
		return errAccessDenied
	}
	return nil
}

// createUser is IamSys::create_user and manager.rs › add_user. Callers hold
// e.mu.
func (e *Emulator) createUser(c *call, ak, secret, status string) *s3Error {
	switch {
	case len(ak) < 3:
		return internalError("failed to create user: invalid access key length")
	case strings.ContainsAny(ak, "=,"):
		return internalError("failed to create user: access key contains reserved characters =,")
	case len(secret) < 8:
		return internalError("failed to create user: invalid secret key length")
	}
	u := e.users[ak]
	u.secretKey, u.status, u.updated = secret, "off", e.now()
	if status == "enabled" {
		u.status = "on"
	}
	e.users[ak] = u
	return writeEmpty(c)
}

// decodeAddUser reads AddOrUpdateUserReq: secretKey and status are required
// (status "enabled" or "disabled"), policy is an optional string and is
// ignored. Decoding errors are 400 InvalidRequest "invalid JSON: …"; they
// name keys, never values.
func decodeAddUser(body []byte) (secret, status string, err *s3Error) {
	n, jerr := parseJSONTree(body)
	if jerr != nil || n.kind != '{' {
		return "", "", invalidRequest("invalid JSON: the body is not a JSON object")
	}
	fields := map[string]string{}
	for _, m := range n.members {
		if m.key != "secretKey" && m.key != "status" && m.key != "policy" {
			continue
		}
		if _, dup := fields[m.key]; dup {
			return "", "", invalidRequest("invalid JSON: duplicate field `" + m.key + "`")
		}
		if m.key == "policy" && m.value.isNull() {
			fields[m.key] = ""
			continue
		}
		if m.value.kind != '"' {
			return "", "", invalidRequest("invalid JSON: invalid type for `" + m.key + "`, expected a string")
		}
		fields[m.key] = m.value.text
	}
	for _, k := range []string{"secretKey", "status"} {
		if _, ok := fields[k]; !ok {
			return "", "", invalidRequest("invalid JSON: missing field `" + k + "`")
		}
	}
	if s := fields["status"]; s != "enabled" && s != "disabled" {
		return "", "", invalidRequest("invalid JSON: unknown variant for `status`, expected `enabled` or `disabled`")
	}
	if fields["secretKey"] == "" {
		return "", "", invalidArgument("secret key is required")
	}
	return fields["secretKey"], fields["status"], nil
}

// userInfoJSON is madmin UserInfo (crates/madmin/src/user.rs), in its field
// order; the secret key is never set.
type userInfoJSON struct {
	PolicyName *string  `json:"policyName,omitempty"`
	Status     string   `json:"status"`
	MemberOf   []string `json:"memberOf,omitempty"`
	UpdatedAt  *string  `json:"updatedAt"`
}

// userInfo is GetUserInfo::call (docs/rustfs-wire.md §20.3): 404 NoSuchResource for an unknown
// user, 500 "action not allowed" for a service account's key.
func (e *Emulator) userInfo(c *call) *s3Error {
	ak, err := userAccessKey(c.r)
	if err != nil {
		return err
	}
	self := ak == c.who.accessKey && c.who.parent == ""
	if self && !c.who.allowedSelf(actionGetUser) || !self && !c.who.allowed(actionGetUser) {
		return errAccessDenied
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, svc := e.accounts[ak]; svc {
		return internalError("action not allowed")
	}
	u, ok := e.users[ak]
	if !ok {
		return errf(http.StatusNotFound, "NoSuchResource", "user '"+ak+"' does not exist")
	}
	out := userInfoJSON{Status: statusName(u.status), MemberOf: u.memberOf}
	if len(u.policies) > 0 {
		names := strings.Join(u.policies, ",")
		out.PolicyName = &names
	}
	if !u.updated.IsZero() {
		at := u.updated.UTC().Format(time.RFC3339Nano)
		out.UpdatedAt = &at
	}
	return writeJSON(c, out)
}

// setUserStatus is SetUserStatus::call (docs/rustfs-wire.md §20.4). Both directions need
// admin:EnableUser; an unknown user is 500.
func (e *Emulator) setUserStatus(c *call) *s3Error {
	q, err := parseQuery(c.r)
	if err != nil {
		return err
	}
	ak, err := q.accessKeyField()
	if err != nil {
		return err
	}
	status, _, err := q.field("status")
	switch {
	case err != nil:
		return err
	case ak == "":
		return invalidArgument("access key is empty")
	case ak == c.who.accessKey:
		return invalidArgument("cannot change the status of the current user")
	case !c.who.allowed(actionEnableUser):
		return errAccessDenied
	case status != "enabled" && status != "disabled":
		return invalidArgument("invalid account status: " + status)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, svc := e.accounts[ak]; svc {
		return internalError("failed to set user status: action not allowed")
	}
	u, ok := e.users[ak]
	if !ok {
		return internalError("failed to set user status: user '" + ak + "' does not exist")
	}
	u.status, u.updated = map[string]string{"enabled": "on", "disabled": "off"}[status], e.now()
	e.users[ak] = u
	return writeEmpty(c)
}

// removeUser is RemoveUser::call (docs/rustfs-wire.md §20.4): the permission comes first; an
// unknown user is 500; the user's service accounts are deleted with it
// (manager.rs › delete_user_with_revision).
func (e *Emulator) removeUser(c *call) *s3Error {
	if !c.who.allowed(actionDeleteUser) {
		return errAccessDenied
	}
	ak, err := userAccessKey(c.r)
	switch {
	case err != nil:
		return err
	case ak == e.root.accessKey || ak == c.who.accessKey || ak == c.who.parent:
		return invalidArgument("cannot remove the current user")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, svc := e.accounts[ak]; svc {
		return invalidArgument("cannot remove a service account")
	}
	if _, ok := e.users[ak]; !ok {
		return internalError("failed to query temporary user state: user '" + ak + "' does not exist")
	}
	for k, a := range e.accounts {
		if a.parent == ak {
			delete(e.accounts, k)
		}
	}
	delete(e.users, ak)
	return writeEmpty(c)
}
