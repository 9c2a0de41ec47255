package rustfstest

import (
	"net/http"
	"sort"
	"strings"
	"time"
)

// lookupSvc finds a service account or answers 404 NoSuchResource, as info
// and update do (docs/rustfs-wire.md §16.3, §16.4). Callers hold e.mu.
func (e *Emulator) lookupSvc(ak string) (*serviceAccount, *s3Error) {
	a, ok := e.accounts[ak]
	if !ok {
		return nil, errf(http.StatusNotFound, "NoSuchResource", "service account '"+ak+"' does not exist")
	}
	return a, nil
}

// requiredAccessKey reads the accessKey query of update and info.
func requiredAccessKey(r *http.Request, failMsg string) (string, *s3Error) {
	ak, err := accessKeyQuery(r, failMsg)
	if err != nil {
		return "", err
	}
	if ak == "" {
		return "", invalidArgument("access key is empty")
	}
	return ak, nil
}

// updateServiceAccount is UpdateServiceAccount::call (docs/rustfs-wire.md §16.3): the body is
// read and checked before the permission, the account is looked up after
// it, and the change is applied whole or not at all. Success is 204.
func (e *Emulator) updateServiceAccount(c *call) *s3Error {
	ak, err := requiredAccessKey(c.r, "get body failed1")
	if err != nil {
		return err
	}
	if err := c.adminBody(); err != nil {
		return err
	}
	r, err := decodeSvcRequest(c.body, updateKeys)
	if err != nil {
		return err
	}
	if err := r.validate(e.now()); err != nil {
		return err
	}
	if !c.who.allowed(actionUpdateSvc) {
		return errSvcDenied
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a, err := e.lookupSvc(ak)
	if err != nil {
		return err
	}
	if !c.who.root && c.who.requestUserName() != a.parent {
		return errSvcDenied
	}
	var policy *iamPolicy
	if r.policy != nil {
		if policy, err = parsePolicy(*r.policy); err != nil {
			return err
		}
	}
	next, err := updated(*a, r, policy)
	if err != nil {
		return err
	}
	*a = next
	c.w.Header().Set("Content-Type", "application/json")
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// updated is IamSys::update_service_account (crates/iam/src/manager.rs): a
// new secret key needs 8 bytes (no upper bound here); any status but on and
// enabled turns the account off; a policy replaces the session policy only
// with a Version and statements, an empty one ({}) removes it, and anything
// else is silently ignored (docs/rustfs-wire.md §16.3).
func updated(a serviceAccount, r svcRequest, policy *iamPolicy) (serviceAccount, *s3Error) {
	if r.newSecretKey != nil {
		if len(*r.newSecretKey) < 8 {
			return a, invalidArgument("invalid secret key length")
		}
		a.secretKey = *r.newSecretKey
	}
	if r.name != nil {
		a.name = r.name
	}
	if r.description != nil {
		a.description = r.description
	}
	if r.expiration != nil {
		a.expiration = *r.expiration
	}
	if r.status != nil {
		a.status = "off"
		if *r.status == "on" || *r.status == "enabled" {
			a.status = "on"
		}
	}
	switch {
	case policy == nil:
	case policy.version == "" && len(policy.statements) == 0:
		a.policy = nil
	case policy.version != "" && len(policy.statements) > 0:
		if len(policy.render(false)) > maxSessionPolicy {
			return a, errf(http.StatusInternalServerError, "InternalError", "update service account failed")
		}
		a.policy = policy
	}
	return a, nil
}

// svcInfoJSON is InfoServiceAccountResp (docs/rustfs-wire.md §16.4).
type svcInfoJSON struct {
	ParentUser    string  `json:"parentUser"`
	AccountStatus string  `json:"accountStatus"`
	ImpliedPolicy bool    `json:"impliedPolicy"`
	Policy        *string `json:"policy,omitempty"`
	Name          *string `json:"name,omitempty"`
	Description   *string `json:"description,omitempty"`
	Expiration    *string `json:"expiration,omitempty"`
}

// serviceAccountInfo is InfoServiceAccount::call (docs/rustfs-wire.md §16.4): an unknown account
// is 404 before the permission check; the caller needs
// admin:ListServiceAccounts or the account's parent as its own parent.
func (e *Emulator) serviceAccountInfo(c *call) *s3Error {
	ak, err := requiredAccessKey(c.r, "get body failed1")
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a, err := e.lookupSvc(ak)
	if err != nil {
		return err
	}
	if !c.who.allowed(actionListSvc) && c.who.requestUserName() != a.parent {
		return errSvcDenied
	}
	if c.compat {
		return notModelled("encrypted admin answers on /minio (docs/rustfs-wire.md §7.4)")
	}
	policy := e.impliedPolicy(a.parent)
	if a.policy != nil {
		policy = a.policy.render(true)
	}
	out := svcInfoJSON{ParentUser: a.parent, AccountStatus: a.status, ImpliedPolicy: a.policy == nil, Policy: &policy,
		Name: a.name, Description: a.description}
	if !a.expiration.IsZero() {
		exp := a.expiration.UTC().Format(time.RFC3339)
		out.Expiration = &exp
	}
	return writeJSON(c, out)
}

// impliedPolicy is the parent's combined policy, shown when an account has
// no session policy: an empty one for the root (it has no mapped policies).
// A WithUser action list is shown as a policy, an approximation, followed by
// the user's mapped canned policies. Callers hold e.mu.
func (e *Emulator) impliedPolicy(parent string) string {
	p := &iamPolicy{version: policyVersion}
	var admin, other []string
	for _, a := range e.users[parent].actions {
		if strings.HasPrefix(a, "admin:") {
			admin = append(admin, a)
		} else {
			other = append(other, a)
		}
	}
	if len(admin) > 0 {
		p.statements = append(p.statements, iamStatement{effect: "Allow", actions: admin})
	}
	if len(other) > 0 {
		p.statements = append(p.statements, iamStatement{effect: "Allow", actions: other, resources: []string{"*"}})
	}
	if mapped := e.userPolicy(parent); mapped != nil {
		p.statements = append(p.statements, mapped.statements...)
	}
	return p.render(true)
}

// svcListEntry is ServiceAccountInfo (docs/rustfs-wire.md §16.5); expiration is null when unset.
type svcListEntry struct {
	ParentUser    string  `json:"parentUser"`
	AccountStatus string  `json:"accountStatus"`
	ImpliedPolicy bool    `json:"impliedPolicy"`
	AccessKey     string  `json:"accessKey"`
	Name          *string `json:"name,omitempty"`
	Description   *string `json:"description,omitempty"`
	Expiration    *string `json:"expiration"`
}

// listServiceAccounts is ListServiceAccount::call (docs/rustfs-wire.md §16.5): the caller's own
// accounts (its parent's, for a service account) need no permission; another
// user's need admin:ListServiceAccounts. RustFS lists in no fixed order; the
// emulator sorts by access key.
func (e *Emulator) listServiceAccounts(c *call) *s3Error {
	user, n, qerr := queryValue(c.r.URL.RawQuery, "user")
	if qerr != nil || n > 1 {
		return invalidArgument("invalid service account query parameters")
	}
	target := c.who.requestUserName()
	if n == 1 && user != c.who.accessKey {
		if !c.who.allowed(actionListSvc) {
			return errSvcDenied
		}
		target = user
	}
	if c.compat {
		return notModelled("encrypted admin answers on /minio (docs/rustfs-wire.md §7.4)")
	}
	e.mu.Lock()
	out := []svcListEntry{}
	for _, a := range e.accounts {
		if a.parent != target {
			continue
		}
		entry := svcListEntry{ParentUser: a.parent, AccountStatus: a.status, ImpliedPolicy: a.policy == nil,
			AccessKey: a.accessKey, Name: a.name, Description: a.description}
		if !a.expiration.IsZero() {
			exp := a.expiration.UTC().Format(time.RFC3339)
			entry.Expiration = &exp
		}
		out = append(out, entry)
	}
	e.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].AccessKey < out[j].AccessKey })
	return writeJSON(c, struct {
		Accounts []svcListEntry `json:"accounts"`
	}{out})
}

// deleteServiceAccount is DeleteServiceAccount::call (docs/rustfs-wire.md §16.6): an unknown
// account is 400 InvalidRequest "service account not exist", and so is one
// the caller may not delete (without admin:RemoveServiceAccount only the
// account's parent, or a credential with the same parent, may). Success is
// 200 on /rustfs and 204 on /minio.
func (e *Emulator) deleteServiceAccount(c *call) *s3Error {
	ak, err := accessKeyQuery(c.r, "invalid access key query parameters")
	if err != nil {
		return err
	}
	if ak == "" {
		return invalidArgument("access key is empty")
	}
	notExist := invalidRequest("service account not exist")
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[ak]
	if !ok || !c.who.allowed(actionRemoveSvc) && c.who.requestUserName() != a.parent {
		return notExist
	}
	delete(e.accounts, ak)
	status := http.StatusOK
	if c.compat {
		status = http.StatusNoContent
	}
	c.w.Header().Set("Content-Type", "application/json")
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(status)
	return nil
}
