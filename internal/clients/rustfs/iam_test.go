package rustfs

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

func parentFor(t *testing.T, namespace string) ParentUser {
	t.Helper()
	p, err := NewParentUser(namespace, namespace+"-")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The first call writes the policy, the user and the mapping; the next one
// only reads (two GETs, no write) and changes nothing, not even the secret
// key nobody knows.
func TestEnsureParentUserIsIdempotent(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := newPair(t, mode)
			parent := parentFor(t, "team-a")
			got, err := p.client.EnsureParentUser(ctx, parent)
			if err != nil {
				t.Fatalf("EnsureParentUser: %v", err)
			}
			if diff := cmp.Diff(ParentUserState{PolicyWritten: true, Created: true, MappingWritten: true, Enabled: true}, got); diff != "" {
				t.Errorf("first call (-want +got):\n%s", diff)
			}
			user, ok := p.local.User(parent.Name)
			if !ok || user.Status != "enabled" || !slices.Equal(user.Policies, []string{parent.Name}) || len(user.SecretKey) != SecretKeyLength {
				t.Fatalf("stored user: found %t, status %q, policies %v, secret of %d bytes", ok, user.Status, user.Policies, len(user.SecretKey))
			}
			stored, _ := p.local.CannedPolicy(parent.Name)
			if sp, err := ParsePolicy(stored); err != nil || !EqualPolicies(sp, parent.Policy) {
				t.Errorf("stored policy %s differs from the bound (%v)", stored, err)
			}
			p.local.ResetCounters()
			got, err = p.client.EnsureParentUser(ctx, parent)
			if err != nil || got != (ParentUserState{Enabled: true}) {
				t.Errorf("second call: %+v, %v; want nothing written", got, err)
			}
			if w, n := p.local.Writes(), len(p.local.Requests()); w != 0 {
				t.Errorf("second call: %d writes over %d requests", w, n)
			}
			if c := p.local.Counts(); c[rustfstest.RouteCannedPolicyInfo] != 1 || c[rustfstest.RouteUserInfo] != 1 {
				t.Errorf("second call: want one policy read and one user read, got %v", c)
			}
			if again, _ := p.local.User(parent.Name); again.SecretKey != user.SecretKey {
				t.Error("the second call replaced the user's secret key")
			}
		})
	}
}

// Drift made behind the provider's back is corrected, except a disabled
// user, which stays disabled, and group membership, which is an error.
func TestEnsureParentUserCorrectsDrift(t *testing.T) {
	parent := parentFor(t, "team-a")
	wide := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"arn:aws:s3:::*"}]}`
	cases := map[string]struct {
		reason  string
		drift   func(e *rustfstest.Server) error
		want    ParentUserState
		wantErr string
		status  string
	}{
		"WidenedPolicy": {reason: "a policy widened by hand is rewritten",
			drift: func(e *rustfstest.Server) error { return e.SeedCannedPolicy(parent.Name, wide) },
			want:  ParentUserState{PolicyWritten: true, Enabled: true}, status: "enabled"},
		"ExtraPolicyMapped": {reason: "a second policy mapped by hand is unmapped",
			drift: seedUser(parent.Name, "enabled", []string{parent.Name, "readwrite"}, nil),
			want:  ParentUserState{MappingWritten: true, Enabled: true}, status: "enabled"},
		"MappingRemoved": {reason: "a removed mapping is restored",
			drift: seedUser(parent.Name, "enabled", nil, nil),
			want:  ParentUserState{MappingWritten: true, Enabled: true}, status: "enabled"},
		"UserRemoved": {reason: "a removed user is added again",
			drift: func(e *rustfstest.Server) error { return removeUser(e, parent.Name) },
			want:  ParentUserState{Created: true, MappingWritten: true, Enabled: true}, status: "enabled"},
		"Disabled": {reason: "an operator's kill switch is reported, never undone",
			drift: seedUser(parent.Name, "disabled", []string{parent.Name}, nil),
			want:  ParentUserState{}, status: "disabled"},
		"InGroups": {reason: "group policies would widen the bound",
			drift: seedUser(parent.Name, "enabled", []string{parent.Name}, []string{"admins"}),
			want:  ParentUserState{Enabled: true}, wantErr: `groups ["admins"]`, status: "enabled"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := newPair(t, rustfstest.ModeGA)
			if _, err := p.client.EnsureParentUser(ctx, parent); err != nil {
				t.Fatal(err)
			}
			if err := tc.drift(p.local); err != nil {
				t.Fatal(err)
			}
			got, err := p.client.EnsureParentUser(ctx, parent)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("%s: error %v, want %q", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
			checkParent(t, p.local, parent, tc.status)
		})
	}
}

// checkParent fails unless the stored user has the status, exactly the
// bounding policy mapped, and that policy unchanged.
func checkParent(t *testing.T, e *rustfstest.Server, parent ParentUser, status string) {
	t.Helper()
	user, _ := e.User(parent.Name)
	stored, _ := e.CannedPolicy(parent.Name)
	sp, _ := ParsePolicy(stored)
	if user.Status != status || !slices.Equal(user.Policies, []string{parent.Name}) || !EqualPolicies(sp, parent.Policy) {
		t.Errorf("after the call: status %q, policies %v, policy %s", user.Status, user.Policies, stored)
	}
}

func seedUser(name, status string, policies, groups []string) func(e *rustfstest.Server) error {
	return func(e *rustfstest.Server) error {
		u, _ := e.User(name)
		u.Status, u.Policies, u.MemberOf = status, policies, groups
		return e.SeedUser(u)
	}
}

// removeUser removes a user through the admin route, as an operator would.
func removeUser(e *rustfstest.Server, name string) error {
	c, err := New(Config{Endpoint: e.URL(), AccessKey: rustfstest.DefaultAccessKey, SecretKey: rustfstest.DefaultSecretKey})
	if err != nil {
		return err
	}
	_, err = c.do(context.Background(), request{method: "DELETE", path: adminPrefix + "/remove-user", query: userQuery(name)})
	return err
}

// Requests RustFS would refuse or misread are refused locally; nothing is
// sent.
func TestIAMRequestsCheckedLocally(t *testing.T) {
	bound, _ := BoundingPolicy("")
	cases := map[string]struct {
		call func(ctx context.Context, c *Client) error
		want string
	}{
		"PolicyWithoutVersion": {func(ctx context.Context, c *Client) error {
			_, err := c.EnsureCannedPolicy(ctx, "p", Policy{Statements: bound.Statements})
			return err
		}, "Version"},
		"PolicyWithoutStatements": {func(ctx context.Context, c *Client) error {
			_, err := c.EnsureCannedPolicy(ctx, "p", Policy{Version: PolicyVersion})
			return err
		}, "no statements"},
		"PolicyNameWithComma": {func(ctx context.Context, c *Client) error {
			_, err := c.EnsureCannedPolicy(ctx, "a,b", bound)
			return err
		}, "policy name"},
		"UserNameWithEquals": {func(ctx context.Context, c *Client) error {
			_, err := c.EnsureParentUser(ctx, ParentUser{Name: "a=b", Policy: bound})
			return err
		}, "user name"},
		"UserNameTooShort": {func(ctx context.Context, c *Client) error {
			_, err := c.EnsureUser(ctx, "ab")
			return err
		}, "user name"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, rustfstest.ModeGA)
			err := tc.call(context.Background(), p.client)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error about %q, got %v", tc.want, err)
			}
			if w := p.local.Writes(); w != 0 {
				t.Errorf("%d writes reached the server", w)
			}
		})
	}
}

// Not-found answers are recognised; a 500 that is not "policy does not
// exist" is not.
func TestIAMNotFound(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeGA)
	if _, err := p.client.UserInfo(ctx, "nobody"); !IsUserNotFound(err) {
		t.Errorf("UserInfo(nobody): want not found, got %v", err)
	}
	if _, err := p.client.CannedPolicy(ctx, "nothing"); !IsPolicyNotFound(err) {
		t.Errorf("CannedPolicy(nothing): want not found, got %v", err)
	}
	if _, err := p.client.EnsureUserPolicy(ctx, "nobody", "nothing"); !IsUserNotFound(err) {
		t.Errorf("EnsureUserPolicy(nobody): want user not found, got %v", err)
	}
	if _, err := p.client.EnsureUser(ctx, "someone"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.client.EnsureUserPolicy(ctx, "someone", "nothing"); !IsPolicyNotFound(err) {
		t.Errorf("mapping an unknown policy: want policy not found, got %v", err)
	}
	p.local.InjectFault(rustfstest.RouteCannedPolicyInfo, rustfstest.Fault{Status: 500, Message: "disk failure", Times: 1})
	if _, err := p.client.CannedPolicy(ctx, "nothing"); err == nil || IsPolicyNotFound(err) || !IsTransient(err) {
		t.Errorf("a failing disk is not a missing policy: %v", err)
	}
}
