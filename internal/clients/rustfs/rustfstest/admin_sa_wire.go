package rustfstest

import (
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Service-account request bodies and queries as serde reads them
// (docs/rustfs-wire.md §16.2, §16.3; crates/madmin/src/user.rs). Unknown keys
// are ignored; a repeated key or a value of the wrong type fails. Error
// messages name keys, never values, so a secret key is never echoed.

// An svcRequest is AddServiceAccountReq and UpdateServiceAccountReq in one:
// add uses the plain keys, update the "new…" keys.
type svcRequest struct {
	policy                     *jsonNode // nil: absent or null
	accessKey, secretKey       string
	targetUser                 *string
	name, description, comment *string
	status                     *string
	newSecretKey               *string
	expiration                 *time.Time
}

// svcKeys are the keys each body reads, with their kinds: "s" a string
// (null is an error), "o" an optional string, "p" a policy, "t" an RFC 3339
// time.
var (
	addKeys = map[string]byte{"policy": 'p', "targetUser": 'o', "accessKey": 's', "secretKey": 's',
		"name": 'o', "description": 'o', "expiration": 't', "comment": 'o'}
	updateKeys = map[string]byte{"newPolicy": 'p', "newSecretKey": 'o', "newStatus": 'o', "newName": 'o',
		"newDescription": 'o', "newExpiration": 't'}
)

func unmarshalFailed(why string) *s3Error {
	return invalidRequest("unmarshal body failed, e: " + why)
}

// decodeSvcRequest reads a body with the given keys.
func decodeSvcRequest(body []byte, keys map[string]byte) (svcRequest, *s3Error) {
	n, err := parseJSONTree(body)
	if err != nil || n.kind != '{' {
		return svcRequest{}, unmarshalFailed("the body is not a JSON object")
	}
	var r svcRequest
	seen := map[string]bool{}
	for _, m := range n.members {
		kind, known := keys[m.key]
		if !known {
			continue
		}
		if seen[m.key] {
			return svcRequest{}, unmarshalFailed("duplicate field `" + m.key + "`")
		}
		seen[m.key] = true
		if err := r.set(m, kind); err != nil {
			return svcRequest{}, err
		}
	}
	return r, nil
}

func (r *svcRequest) set(m jsonMember, kind byte) *s3Error {
	v := m.value
	if kind == 'p' {
		if !v.isNull() {
			r.policy = policyValue(v)
		}
		return nil
	}
	if v.isNull() && kind != 's' {
		return nil
	}
	if v.kind != '"' {
		return unmarshalFailed("invalid type for `" + m.key + "`, expected a string")
	}
	if kind == 't' {
		t, err := time.Parse(time.RFC3339, v.text)
		if err != nil {
			return unmarshalFailed("`" + m.key + "` is not an RFC 3339 time")
		}
		r.expiration = &t
		return nil
	}
	s := v.text
	switch strings.TrimPrefix(m.key, "new") {
	case "accessKey":
		r.accessKey = s
	case "secretKey":
		r.secretKey = s
	case "SecretKey":
		r.newSecretKey = &s
	case "targetUser":
		r.targetUser = &s
	case "name", "Name":
		r.name = &s
	case "description", "Description":
		r.description = &s
	case "comment":
		r.comment = &s
	case "Status":
		r.status = &s
	}
	return nil
}

// policyValue is deserialize_optional_policy_value: a JSON string holding a
// policy is read as that policy; any other string stays a string (and then
// fails to parse as a policy).
func policyValue(v jsonNode) *jsonNode {
	if v.kind == '"' {
		if inner, err := parseJSONTree([]byte(v.text)); err == nil {
			return &inner
		}
	}
	return &v
}

// validate is AddServiceAccountReq::validate / UpdateServiceAccountReq::validate
// (docs/rustfs-wire.md §16.2 step 4): 400 InvalidRequest with the message.
func (r svcRequest) validate(now time.Time) *s3Error {
	if r.name != nil && *r.name != "" {
		name := *r.name
		switch {
		case len(name) > 32:
			return invalidRequest("name must not be longer than 32 characters")
		case !validSvcName(name):
			return invalidRequest("name must contain only ASCII letters, digits, underscores and hyphens and must start with a letter")
		}
	}
	d := r.description
	if d == nil {
		d = r.comment
	}
	if d != nil && len(*d) > 256 {
		return invalidRequest("description must be at most 256 bytes long")
	}
	if r.expiration != nil && r.expiration.Unix() != 0 && r.expiration.Before(now) {
		return invalidRequest("the expiration time should be in the future")
	}
	return nil
}

func validSvcName(name string) bool {
	for i, c := range name {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if i == 0 && !letter || !letter && !(c >= '0' && c <= '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// accessKeyQuery is AccessKeyQuery decoded by serde_urlencoded: accessKey
// (alias access-key) is required once a query is present; a repeated key
// fails. No query at all gives "". failMsg is the route's message.
func accessKeyQuery(r *http.Request, failMsg string) (string, *s3Error) {
	if r.URL.RawQuery == "" && !r.URL.ForceQuery {
		return "", nil
	}
	v, n, err := queryValue(r.URL.RawQuery, "accessKey", "access-key")
	if err != nil || n != 1 {
		return "", invalidArgument(failMsg)
	}
	return v, nil
}

// queryValue returns the value of the first of names present and how many
// times any of them occurs.
func queryValue(raw string, names ...string) (string, int, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return "", 0, err
	}
	var value string
	n := 0
	for _, name := range names {
		for _, v := range q[name] {
			if n == 0 {
				value = v
			}
			n++
		}
	}
	return value, n, nil
}
