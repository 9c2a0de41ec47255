package rustfstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
)

// Canned-policy routes and the user policy mapping (docs/rustfs-wire.md
// §20.5; rustfs/src/admin/handlers/policies.rs, crates/iam/src/manager.rs).

// builtinPolicies are RustFS's default canned policies (DEFAULT_POLICIES),
// which cannot be removed. The emulator does not serve their documents.
var builtinPolicies = map[string]bool{"readwrite": true, "readonly": true, "writeonly": true,
	"diagnostics": true, "consoleAdmin": true, "KMSKeyAdministrator": true, "KMSKeyUser": true, "KMSAuditor": true}

// policyName reads PolicyNameQuery's name: required; a query without it
// fails to decode, no query at all leaves it empty.
func policyName(r *http.Request) (string, *s3Error) {
	q, err := parseQuery(r)
	if err != nil {
		return "", err
	}
	name, ok, err := q.field("name")
	switch {
	case err != nil:
		return "", err
	case q.present && !ok:
		return "", errDecodeQuery
	case name == "":
		return "", invalidArgument("policy name is required")
	}
	return name, nil
}

// parseCannedPolicy is Policy::parse_config for add-canned-policy: decoding
// and validation errors are 400 InvalidRequest, a missing Version 400
// InvalidArgument, and a policy without statements is refused by set_policy
// with 500 "invalid arguments specified".
func parseCannedPolicy(n jsonNode) (*iamPolicy, *s3Error) {
	p, err := parsePolicy(n)
	if err != nil {
		if err.status != http.StatusBadRequest {
			return nil, err // the emulator's 501 for what it does not model
		}
		return nil, invalidRequest(strings.TrimPrefix(err.message, "invalid service account policy: "))
	}
	if p.version == "" {
		return nil, invalidArgument("policy version is required")
	}
	if len(p.statements) == 0 {
		return nil, internalError("invalid arguments specified")
	}
	return p, nil
}

// addCannedPolicy is AddCannedPolicy::call (docs/rustfs-wire.md §20.5): the body is the policy
// document itself, read raw on both prefixes (never decrypted).
func (e *Emulator) addCannedPolicy(c *call) *s3Error {
	if !c.who.allowed(actionCreatePolicy) {
		return errAccessDenied
	}
	name, err := policyName(c.r)
	switch {
	case err != nil:
		return err
	case strings.ContainsFunc(name, unicode.IsSpace):
		return invalidArgument("policy name contains spaces")
	case c.bodyBad:
		return invalidRequest("policy configuration body too large or failed to read")
	}
	n, jerr := parseJSONTree(c.body)
	if jerr != nil {
		return invalidRequest("the policy is not valid JSON")
	}
	p, err := parseCannedPolicy(n)
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.storePolicy(name, p)
	e.mu.Unlock()
	return writeEmpty(c)
}

// cannedPolicyInfo is InfoCannedPolicy::call (docs/rustfs-wire.md §20.5): an unknown policy is
// 500 InternalError "policy does not exist". The answer is PolicyInfo with
// the policy as a JSON object whose keys are sorted (serde_json::Value).
func (e *Emulator) cannedPolicyInfo(c *call) *s3Error {
	if !c.who.allowed(actionGetPolicy) {
		return errAccessDenied
	}
	name, err := policyName(c.r)
	if err != nil {
		return err
	}
	if len(splitPolicyNames(name)) != 1 {
		return invalidArgument("too many policies")
	}
	e.mu.Lock()
	cp, ok := e.policies[name]
	e.mu.Unlock()
	if !ok {
		return internalError("policy does not exist")
	}
	var doc any
	_ = json.Unmarshal([]byte(cp.policy.render(false)), &doc) // rendered JSON: cannot fail
	b, _ := marshalNoEscape(struct {
		PolicyName string `json:"policy_name"`
		Policy     any    `json:"policy"`
		CreateDate string `json:"create_date"`
		UpdateDate string `json:"update_date"`
	}{name, doc, humanTime(cp.created), humanTime(cp.updated)}) // strings and maps: cannot fail
	c.w.Header().Set("Content-Type", "application/json")
	_, _ = c.w.Write(b)
	return nil
}

// humanTime is the time crate's human-readable OffsetDateTime, as serde
// renders PolicyInfo's dates: "2026-08-23 10:11:12.5 +00:00:00".
func humanTime(t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf("%s.%s +00:00:00", t.Format(time.DateTime), subsecond(t.Nanosecond()))
}

func subsecond(ns int) string {
	s := strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	if s == "" {
		return "0"
	}
	return s
}

// removeCannedPolicy is RemoveCannedPolicy::call (docs/rustfs-wire.md §20.5): a built-in policy
// or one still mapped to a user is 500; an unknown one is removed
// successfully.
func (e *Emulator) removeCannedPolicy(c *call) *s3Error {
	if !c.who.allowed(actionDeletePolicy) {
		return errAccessDenied
	}
	name, err := policyName(c.r)
	if err != nil {
		return err
	}
	if builtinPolicies[name] {
		return internalError("system policy can not be deleted")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, u := range e.users {
		for _, p := range u.policies {
			if p == name {
				return internalError("policy in use")
			}
		}
	}
	delete(e.policies, name)
	return writeEmpty(c)
}

// mappingQuery is SetPolicyForUserOrGroupQuery: policyName (alias policy)
// optional, userOrGroup (alias user-or-group) and isGroup (alias is-group,
// true or false) required once a query is present.
func mappingQuery(r *http.Request) (policies, target string, isGroup bool, err *s3Error) {
	q, err := parseQuery(r)
	if err != nil || !q.present {
		return "", "", false, err
	}
	policies, _, err = q.field("policyName", "policy")
	if err != nil {
		return "", "", false, err
	}
	target, okTarget, err := q.field("userOrGroup", "user-or-group")
	if err != nil {
		return "", "", false, err
	}
	group, okGroup, err := q.field("isGroup", "is-group")
	if err != nil || !okTarget || !okGroup || group != "true" && group != "false" {
		return "", "", false, errDecodeQuery
	}
	return policies, target, group == "true", nil
}

// setUserPolicy is SetPolicyForUserOrGroup::call (docs/rustfs-wire.md §20.5) for users: it
// replaces the user's whole mapping with the named policies (an empty name
// removes it); every named policy must exist. Groups are not modelled.
func (e *Emulator) setUserPolicy(c *call) *s3Error {
	if !c.who.allowed(actionAttachPolicy) {
		return errAccessDenied
	}
	policies, target, isGroup, err := mappingQuery(c.r)
	switch {
	case err != nil:
		return err
	case target == "":
		return invalidArgument("user or group is required")
	case isGroup:
		return notModelled("groups")
	case target == e.root.accessKey:
		return invalidArgument("cannot set a policy for the system user")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, svc := e.accounts[target]; svc {
		return notModelled("a policy mapping for a service account's access key")
	}
	u, ok := e.users[target]
	if !ok {
		return invalidArgument("user not found")
	}
	names := splitPolicyNames(policies)
	for _, n := range names {
		if _, ok := e.policies[n]; !ok {
			return internalError("policy does not exist")
		}
	}
	u.policies, u.updated = names, e.now()
	e.users[target] = u
	return writeEmpty(c)
}
