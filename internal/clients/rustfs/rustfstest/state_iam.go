package rustfstest

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// IAM users and canned policies (docs/rustfs-wire.md §20;
// crates/iam/src/manager.rs).

// A cannedPolicy is a stored policy document (PolicyDoc).
type cannedPolicy struct {
	policy           *iamPolicy
	created, updated time.Time
}

// userIdentity is the identity of a regular user's own key: refused with
// ErrAccessKeyDisabled when the user is off (auth.rs › check_key_valid).
// Callers hold e.mu.
func (e *Emulator) userIdentity(name string, u user) *identity {
	id := &identity{accessKey: name, actions: u.actions, base: e.userPolicy(name)}
	if u.status == "off" {
		id.refusal = invalidRequest("ErrAccessKeyDisabled")
	}
	return id
}

// userPolicy merges the canned policies mapped to a user, in mapping order
// (Policy::merge_policies; duplicate statements, which RustFS drops, are
// kept: they change no decision); nil when none is mapped or none exists.
// Callers hold e.mu.
func (e *Emulator) userPolicy(name string) *iamPolicy {
	var merged *iamPolicy
	for _, pn := range e.users[name].policies {
		cp, ok := e.policies[pn]
		if !ok {
			continue
		}
		if merged == nil {
			merged = &iamPolicy{version: cp.policy.version}
		}
		merged.statements = append(merged.statements, cp.policy.statements...)
	}
	return merged
}

// principalAllows is a user's own permission: no Deny of its canned
// policies matches, and its action list or an Allow of its policies does
// (Policy::is_allowed over the combined policy).
func principalAllows(actions []string, base *iamPolicy, a accessRequest) bool {
	if base != nil && base.denies(a) {
		return false
	}
	return userAllows(actions, a.action) || base != nil && base.allows(a)
}

// denies reports whether a Deny statement matches.
func (p *iamPolicy) denies(a accessRequest) bool {
	for i := range p.statements {
		if s := &p.statements[i]; s.effect == "Deny" && s.matches(a) {
			return true
		}
	}
	return false
}

// allowedSelf is the deny-only check RustFS makes when a user without a
// parent acts on itself (user.rs › should_check_deny_only): only an explicit
// Deny refuses.
func (id *identity) allowedSelf(action string) bool {
	return id.root || id.base == nil || !id.base.denies(accessRequest{action: action})
}

// A UserRecord is a regular IAM user as tests see it, including its secret
// key (tests may compare it; they must not print it).
type UserRecord struct {
	Name      string
	SecretKey string
	Status    string   // "enabled" or "disabled"; "" means enabled when seeding
	Policies  []string // mapped canned policy names
	// MemberOf lists groups; the emulator shows them in user-info but models
	// no groups and evaluates no group policies.
	MemberOf []string
}

// User returns one regular user.
func (e *Emulator) User(name string) (UserRecord, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	u, ok := e.users[name]
	if !ok {
		return UserRecord{}, false
	}
	return UserRecord{Name: name, SecretKey: u.secretKey, Status: statusName(u.status),
		Policies: slices.Clone(u.policies), MemberOf: slices.Clone(u.memberOf)}, true
}

// SeedUser stores a regular user out of band, replacing one with the same
// name (its WithUser actions are kept), with no permission or key checks; for
// example to disable it, map another policy or add a group behind the
// provider's back. Mapped policies need not exist.
func (e *Emulator) SeedUser(r UserRecord) error {
	if r.Status != "" && r.Status != "enabled" && r.Status != "disabled" {
		return fmt.Errorf("seed user %q: status must be enabled or disabled", r.Name)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, svc := e.accounts[r.Name]; svc || r.Name == e.root.accessKey {
		return fmt.Errorf("seed user %q: the name is a service account's or the root's", r.Name)
	}
	u := e.users[r.Name]
	u.secretKey, u.status, u.updated = r.SecretKey, "on", e.now()
	if r.Status == "disabled" {
		u.status = "off"
	}
	u.policies, u.memberOf = slices.Clone(r.Policies), slices.Clone(r.MemberOf)
	e.users[r.Name] = u
	return nil
}

// CannedPolicy returns a stored canned policy as RustFS stores it (compact
// JSON).
func (e *Emulator) CannedPolicy(name string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	cp, ok := e.policies[name]
	if !ok {
		return "", false
	}
	return cp.policy.render(false), true
}

// SeedCannedPolicy stores a canned policy out of band, replacing one with the
// same name; for example to widen a bounding policy behind the provider's
// back. The policy is parsed as add-canned-policy parses it.
func (e *Emulator) SeedCannedPolicy(name, policy string) error {
	n, err := parseJSONTree([]byte(policy))
	if err != nil {
		return errors.New("seed canned policy: not JSON")
	}
	p, perr := parseCannedPolicy(n)
	if perr != nil {
		return fmt.Errorf("seed canned policy %q: %s", name, perr.message)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.storePolicy(name, p)
	return nil
}

// storePolicy adds or replaces a canned policy (manager.rs › set_policy
// keeps the creation date). Callers hold e.mu.
func (e *Emulator) storePolicy(name string, p *iamPolicy) {
	now := e.now()
	cp := &cannedPolicy{policy: p, created: now, updated: now}
	if old, ok := e.policies[name]; ok {
		cp.created = old.created
	}
	e.policies[name] = cp
}

func statusName(status string) string {
	if status == "off" {
		return "disabled"
	}
	return "enabled"
}
