package rustfstest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path"
	"strings"
)

// An accessRequest is what a policy is asked about: an action on a bucket
// and object, with the request's condition values keyed by the name without
// its "s3:" prefix (for example "prefix").
type accessRequest struct {
	action, bucket, object string
	conditions             map[string][]string
}

// listActions take the ListObjects query as condition values and match
// their bucket only (docs/rustfs-wire.md §16.7; access.rs › merge_list_bucket_query_conditions,
// statement.rs › build_resource).
var listActions = map[string]bool{"s3:ListBucket": true, "s3:ListBucketVersions": true, "s3:ListBucketMultipartUploads": true}

// listConditions returns prefix, delimiter and max-keys from the query of a
// list call, as RustFS merges them.
func listConditions(action string, r *http.Request) map[string][]string {
	if !listActions[action] {
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	for _, k := range []string{"prefix", "delimiter", "max-keys"} {
		if v, ok := q[k]; ok {
			out[k] = v
		}
	}
	return out
}

// allows is Policy::is_allowed with is_owner false: a matching Deny
// statement denies, then a matching Allow allows, else deny.
func (p *iamPolicy) allows(a accessRequest) bool {
	for i := range p.statements {
		if s := &p.statements[i]; s.effect == "Deny" && s.matches(a) {
			return false
		}
	}
	for i := range p.statements {
		if s := &p.statements[i]; s.effect == "Allow" && s.matches(a) {
			return true
		}
	}
	return false
}

// matches is Statement::request_reaches_condition_eval and the condition
// evaluation. Admin statements skip the resource match.
func (s *iamStatement) matches(a accessRequest) bool {
	if len(s.actions) > 0 && !actionIn(s.actions, a.action) || actionIn(s.notActions, a.action) {
		return false
	}
	admin := len(s.actions) > 0 && strings.HasPrefix(s.actions[0], "admin:")
	if !admin {
		res := buildResource(a, s.referencesPrefix())
		switch {
		case len(s.resources) == 0 && len(s.notResources) == 0:
			return false
		case len(s.resources) > 0 && !resourceIn(s.resources, res):
			return false
		case len(s.notResources) > 0 && resourceIn(s.notResources, res):
			return false
		}
	}
	for _, c := range s.conditions {
		if !c.holds(a.conditions) {
			return false
		}
	}
	return true
}

// actionIn matches an action against a set with wildcards; s3:GetObjectVersion
// in the set also matches s3:GetObject (action.rs › ActionSet::is_match).
func actionIn(set []string, action string) bool {
	for _, p := range set {
		if wildcardMatch(p, action) || p == "s3:GetObjectVersion" && action == "s3:GetObject" {
			return true
		}
	}
	return false
}

func (s *iamStatement) referencesPrefix() bool {
	for _, c := range s.conditions {
		for _, k := range c.keys {
			if k.name == "s3:prefix" {
				return true
			}
		}
	}
	return false
}

// buildResource is statement.rs › build_resource: "bucket/" for bucket calls
// and for list calls under a statement with an s3:prefix condition, else
// "bucket/object".
func buildResource(a accessRequest, bucketOnly bool) string {
	if a.object == "" || listActions[a.action] && bucketOnly {
		return a.bucket + "/"
	}
	if strings.HasPrefix(a.object, "/") {
		return a.bucket + a.object
	}
	return a.bucket + "/" + a.object
}

// resourceIn is ResourceSet::is_match: the resource, cleaned like Go's
// path.Clean, equals a pattern or matches it with * and ? wildcards.
func resourceIn(patterns []string, resource string) bool {
	cp := path.Clean(resource)
	if cp == "." {
		return false
	}
	for _, p := range patterns {
		if cp == p || wildcardMatch(p, cp) {
			return true
		}
	}
	return false
}

// wildcardMatch is wildcard.rs › is_match: '*' matches any run, '?' exactly
// one character.
func wildcardMatch(pattern, name string) bool {
	if pattern == "" {
		return name == ""
	}
	if pattern == "*" {
		return true
	}
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			return len(pattern) == 1 || wildcardMatch(pattern[1:], name) ||
				len(name) > 0 && wildcardMatch(pattern, name[1:])
		case '?':
			if len(name) == 0 {
				return false
			}
		default:
			if len(name) == 0 || name[0] != pattern[0] {
				return false
			}
		}
		name, pattern = name[1:], pattern[1:]
	}
	return name == ""
}

// holds evaluates an unqualified string operator (string.rs): Equals and
// Like hold when some request value matches some policy value; an absent key
// does not match; the Not forms negate that.
func (c iamCondition) holds(values map[string][]string) bool {
	like := strings.HasSuffix(c.operator, "Like")
	negate := strings.HasPrefix(c.operator, "StringNot")
	for _, k := range c.keys {
		matched := false
		for _, v := range values[modelledKeys[k.name]] {
			for _, pv := range k.values {
				if like && wildcardMatch(pv, v) || !like && pv == v {
					matched = true
				}
			}
		}
		if matched == negate {
			return false
		}
	}
	return true
}

// render serialises the policy as serde does: keys in Policy and Statement
// order, empty lists and conditions omitted, Action and Resource always
// arrays, resources with their ARN prefix, a single condition value as a
// string and several as an array in hash-set order (shuffled here, so
// clients cannot depend on it). Compact is how RustFS stores it; pretty is
// the "policy" string of an info answer (docs/rustfs-wire.md §16.4).
func (p *iamPolicy) render(pretty bool) string {
	var top orderedJSON
	if p.id != "" {
		top = append(top, jsonMember{"ID", str(p.id)})
	}
	top = append(top, jsonMember{"Version", str(p.version)})
	stmts := jsonNode{kind: '['}
	for _, s := range p.statements {
		stmts.items = append(stmts.items, s.node())
	}
	top = append(top, jsonMember{"Statement", stmts})
	b, _ := renderValue(jsonNode{kind: '{', members: top}) // strings only: cannot fail
	if !pretty {
		return string(b)
	}
	var buf bytes.Buffer
	_ = json.Indent(&buf, b, "", "  ") // valid JSON: cannot fail
	return buf.String()
}

func (s iamStatement) node() jsonNode {
	n := jsonNode{kind: '{'}
	add := func(key string, v jsonNode) { n.members = append(n.members, jsonMember{key, v}) }
	if s.sid != "" {
		add("Sid", str(s.sid))
	}
	add("Effect", str(s.effect))
	for _, f := range []struct {
		key, prefix string
		list        []string
	}{{"Action", "", s.actions}, {"NotAction", "", s.notActions},
		{"Resource", s3ARNPrefix, s.resources}, {"NotResource", s3ARNPrefix, s.notResources}} {
		if len(f.list) > 0 {
			add(f.key, array(f.prefix, f.list))
		}
	}
	if len(s.conditions) > 0 {
		c := jsonNode{kind: '{'}
		for _, cond := range s.conditions {
			keys := jsonNode{kind: '{'}
			for _, k := range cond.keys {
				keys.members = append(keys.members, jsonMember{k.name, valueSet(k.values)})
			}
			c.members = append(c.members, jsonMember{cond.operator, keys})
		}
		add("Condition", c)
	}
	return n
}

func str(s string) jsonNode { return jsonNode{kind: '"', text: s} }

func array(prefix string, list []string) jsonNode {
	n := jsonNode{kind: '['}
	for _, v := range list {
		n.items = append(n.items, str(prefix+v))
	}
	return n
}

// valueSet renders a condition value set (string.rs › StringFuncValue).
func valueSet(values []string) jsonNode {
	var uniq []string
	for _, v := range values {
		uniq = appendUnique(uniq, v)
	}
	if len(uniq) == 1 {
		return str(uniq[0])
	}
	rand.Shuffle(len(uniq), func(i, j int) { uniq[i], uniq[j] = uniq[j], uniq[i] })
	return array("", uniq)
}
