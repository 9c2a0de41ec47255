package rustfstest

import (
	"maps"
	"net/http"
	"net/url"
	"strings"
)

// IAM user and canned-policy routes (docs/rustfs-wire.md §20;
// rustfs/src/admin/handlers/user.rs, user_lifecycle.rs, policies.rs).

// Route names of the IAM user and policy routes.
const (
	RouteAddUser            = "iam.addUser"
	RouteUserInfo           = "iam.userInfo"
	RouteSetUserStatus      = "iam.setUserStatus"
	RouteRemoveUser         = "iam.removeUser"
	RouteAddCannedPolicy    = "iam.addPolicy"
	RouteCannedPolicyInfo   = "iam.policyInfo"
	RouteRemoveCannedPolicy = "iam.removePolicy"
	RouteSetUserPolicy      = "iam.setPolicy"
)

// The admin actions of the routes (crates/policy/src/policy/action.rs).
const (
	actionCreateUser   = "admin:CreateUser"
	actionGetUser      = "admin:GetUser"
	actionEnableUser   = "admin:EnableUser"
	actionDeleteUser   = "admin:DeleteUser"
	actionCreatePolicy = "admin:CreatePolicy"
	actionGetPolicy    = "admin:GetPolicy"
	actionDeletePolicy = "admin:DeletePolicy"
	actionAttachPolicy = "admin:AttachUserOrGroupPolicy"
)

// iamRoutes are the routes by method and path (docs/rustfs-wire.md §20.1;
// user_lifecycle.rs › register_user_lifecycle_route,
// policies.rs › register_iam_policy_route).
var iamRoutes = map[string]string{
	"PUT add-user": RouteAddUser, "GET user-info": RouteUserInfo, "PUT set-user-status": RouteSetUserStatus,
	"DELETE remove-user": RouteRemoveUser, "PUT add-canned-policy": RouteAddCannedPolicy,
	"GET info-canned-policy": RouteCannedPolicyInfo, "DELETE remove-canned-policy": RouteRemoveCannedPolicy,
	"PUT set-user-or-group-policy": RouteSetUserPolicy, "PUT set-policy": RouteSetUserPolicy,
}

// The route table and the write counter learn the IAM routes here, so the
// shared tables in server.go and routes.go stay as they were.
func init() {
	maps.Copy(handlers, map[string]handler{
		RouteAddUser: (*Emulator).addUser, RouteUserInfo: (*Emulator).userInfo,
		RouteSetUserStatus: (*Emulator).setUserStatus, RouteRemoveUser: (*Emulator).removeUser,
		RouteAddCannedPolicy: (*Emulator).addCannedPolicy, RouteCannedPolicyInfo: (*Emulator).cannedPolicyInfo,
		RouteRemoveCannedPolicy: (*Emulator).removeCannedPolicy, RouteSetUserPolicy: (*Emulator).setUserPolicy,
	})
	for _, r := range []string{RouteAddUser, RouteSetUserStatus, RouteRemoveUser, RouteAddCannedPolicy,
		RouteRemoveCannedPolicy, RouteSetUserPolicy} {
		writeRoutes[r] = true
	}
}

// errDecodeQuery is every IAM route's answer to a query serde_urlencoded
// cannot decode: a repeated key, a missing required key, a bad boolean.
var errDecodeQuery = invalidArgument("failed to decode query")

// A query is a decoded query string with serde_urlencoded's rules: no query
// at all gives the defaults; a key that occurs twice (counting aliases as one
// field) fails.
type query struct {
	present bool
	values  url.Values
}

func parseQuery(r *http.Request) (query, *s3Error) {
	if r.URL.RawQuery == "" && !r.URL.ForceQuery {
		return query{}, nil
	}
	v, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return query{}, errDecodeQuery
	}
	return query{present: true, values: v}, nil
}

// field returns the value of a field with its aliases and whether it was
// given; a repeated field fails to decode.
func (q query) field(names ...string) (string, bool, *s3Error) {
	var value string
	n := 0
	for _, name := range names {
		for _, v := range q.values[name] {
			value = v
			n++
		}
	}
	if n > 1 {
		return "", false, errDecodeQuery
	}
	return value, n == 1, nil
}

// accessKeyField is AddUserQuery's accessKey (alias access-key), optional.
func (q query) accessKeyField() (string, *s3Error) {
	ak, _, err := q.field("accessKey", "access-key")
	return ak, err
}

// userAccessKey is the accessKey of a user route's query, required: a
// query that does not decode fails as it does, and a missing or empty key
// is "access key is empty".
func userAccessKey(r *http.Request) (string, *s3Error) {
	q, err := parseQuery(r)
	if err != nil {
		return "", err
	}
	ak, err := q.accessKeyField()
	if err != nil {
		return "", err
	}
	if ak == "" {
		return "", invalidArgument("access key is empty")
	}
	return ak, nil
}

// splitPolicyNames is MappedPolicy::to_slice: comma-separated names, blank
// ones dropped, the others kept as they are (not trimmed).
func splitPolicyNames(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}
