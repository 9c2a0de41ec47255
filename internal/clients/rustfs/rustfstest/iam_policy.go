package rustfstest

import (
	"net/http"
	"strings"
)

// Session policies as RustFS parses and validates them
// (docs/rustfs-wire.md §16.7: crates/policy/src/policy/policy.rs › Policy,
// statement.rs › Statement, resource.rs, action.rs, function.rs).

const (
	policyVersion = "2012-10-17"
	s3ARNPrefix   = "arn:aws:s3:::"
	// maxSessionPolicy is MAX_SVCSESSION_POLICY_SIZE (docs/rustfs-wire.md §16.2 step 10).
	maxSessionPolicy = 4096
)

// An iamPolicy is a parsed policy; it keeps the document's order, which
// RustFS renders back.
type iamPolicy struct {
	id, version string
	statements  []iamStatement
}

// An iamStatement is one statement. Resources are stored without the
// arn:aws:s3::: prefix, as RustFS matches them.
type iamStatement struct {
	sid, effect             string
	actions, notActions     []string
	resources, notResources []string
	conditions              []iamCondition
}

// An iamCondition is one operator with its keys, in document order.
type iamCondition struct {
	operator string
	keys     []iamConditionKey
}

type iamConditionKey struct {
	name   string // for example s3:prefix
	values []string
}

// errPolicyFormat is RustFS's answer to any policy serde cannot decode:
// bad JSON, an unknown or duplicate key, a wrong type, an unknown action or
// Effect, or a resource without the arn:aws:s3::: prefix (docs/rustfs-wire.md §16.2 step 5).
var errPolicyFormat = invalidArgument("Policy format is invalid. Please check the JSON structure and ensure it follows the IAM policy format.")

func invalidPolicy(msg string) *s3Error {
	return invalidArgument("invalid service account policy: " + msg)
}

// notModelled refuses a policy the emulator cannot evaluate faithfully
// instead of evaluating it wrongly.
func notModelled(what string) *s3Error {
	return errf(http.StatusNotImplemented, "NotImplemented", "the emulator does not model "+what)
}

// parsePolicy decodes and validates a policy like Policy::parse_config.
func parsePolicy(n jsonNode) (*iamPolicy, *s3Error) {
	if n.kind != '{' {
		return nil, errPolicyFormat
	}
	p := &iamPolicy{}
	seen := map[string]bool{}
	for _, m := range n.members {
		if seen[m.key] {
			return nil, errPolicyFormat
		}
		seen[m.key] = true
		var err *s3Error
		switch m.key {
		case "ID":
			p.id, err = stringField(m.value)
		case "Version":
			p.version, err = stringField(m.value)
		case "Statement":
			p.statements, err = parseStatements(m.value)
		default:
			err = errPolicyFormat // deny_unknown_fields
		}
		if err != nil {
			return nil, err
		}
	}
	if p.version != "" && p.version != policyVersion {
		return nil, invalidPolicy("invalid Version '" + p.version + "'")
	}
	for i := range p.statements {
		if err := p.statements[i].validate(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func stringField(n jsonNode) (string, *s3Error) {
	if n.kind != '"' {
		return "", errPolicyFormat
	}
	return n.text, nil
}

func parseStatements(n jsonNode) ([]iamStatement, *s3Error) {
	if n.kind != '[' {
		return nil, errPolicyFormat
	}
	out := make([]iamStatement, 0, len(n.items))
	for _, it := range n.items {
		s, err := parseStatement(it)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func parseStatement(n jsonNode) (iamStatement, *s3Error) {
	if n.kind != '{' {
		return iamStatement{}, errPolicyFormat
	}
	var s iamStatement
	seen := map[string]bool{}
	for _, m := range n.members {
		if seen[m.key] {
			return iamStatement{}, errPolicyFormat
		}
		seen[m.key] = true
		if err := s.setField(m); err != nil {
			return iamStatement{}, err
		}
	}
	if !seen["Effect"] {
		return iamStatement{}, errPolicyFormat // Effect has no default
	}
	return s, nil
}

func (s *iamStatement) setField(m jsonMember) *s3Error {
	var err *s3Error
	switch m.key {
	case "Sid":
		s.sid, err = stringField(m.value)
	case "Effect":
		s.effect, err = stringField(m.value)
		if err == nil && s.effect != "Allow" && s.effect != "Deny" {
			err = errPolicyFormat
		}
	case "Action":
		s.actions, err = parseActions(m.value)
	case "NotAction":
		s.notActions, err = parseActions(m.value)
	case "Resource":
		s.resources, err = parseResources(m.value)
	case "NotResource":
		s.notResources, err = parseResources(m.value)
	case "Condition":
		s.conditions, err = parseConditions(m.value)
	default:
		err = errPolicyFormat
	}
	return err
}

// parseActions reads an ActionSet: known names only ("*" is s3:*),
// duplicates dropped, order kept (action.rs › push_unique).
func parseActions(n jsonNode) ([]string, *s3Error) {
	list, ok := n.stringList()
	if !ok {
		return nil, errPolicyFormat
	}
	var out []string
	for _, a := range list {
		if a == "*" {
			a = "s3:*"
		}
		switch {
		case strings.HasPrefix(a, "sts:"), strings.HasPrefix(a, "kms:"):
			return nil, notModelled("sts: and kms: actions in a session policy")
		case !knownActions[a]:
			return nil, errPolicyFormat
		}
		out = appendUnique(out, a)
	}
	return out, nil
}

// parseResources reads a ResourceSet of S3 resources: the arn:aws:s3:::
// prefix is required, the rest must be non-empty and must not start with '/'
// (resource.rs › Resource::is_valid).
func parseResources(n jsonNode) ([]string, *s3Error) {
	list, ok := n.stringList()
	if !ok {
		return nil, errPolicyFormat
	}
	var out []string
	for _, r := range list {
		if strings.HasPrefix(r, "arn:aws:kms:::") {
			return nil, notModelled("KMS resources")
		}
		rest, ok := strings.CutPrefix(r, s3ARNPrefix)
		if !ok || rest == "" || strings.HasPrefix(rest, "/") {
			return nil, errPolicyFormat
		}
		if strings.Contains(rest, "${") {
			return nil, notModelled("policy variables")
		}
		out = appendUnique(out, rest)
	}
	return out, nil
}

func appendUnique(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}
