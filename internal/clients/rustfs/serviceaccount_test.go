package rustfs

import (
	"context"
	"strings"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// newAccount returns a valid account for bucket "data" with a fresh secret.
func newAccount(t *testing.T, ak string, grants ...BucketGrant) NewServiceAccount {
	t.Helper()
	if len(grants) == 0 {
		grants = []BucketGrant{{Bucket: "data", Access: ReadOnly}}
	}
	p, err := SessionPolicy(grants)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := NewSecretKey()
	if err != nil {
		t.Fatal(err)
	}
	return NewServiceAccount{AccessKey: ak, SecretKey: sk, Policy: p, Name: "teamA-app"}
}

func TestServiceAccountRoundTrip(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := newPair(t, mode)
			ak := DeriveAccessKey("team-a", "app", "uid-1")
			a := newAccount(t, ak, BucketGrant{Bucket: "data", Access: ReadOnly, Prefix: "reports/"},
				BucketGrant{Bucket: "logs", Access: ReadWrite})
			if err := p.client.AddServiceAccount(ctx, a); err != nil {
				t.Fatalf("AddServiceAccount: %v", err)
			}
			if rec, _ := p.local.ServiceAccount(ak); rec.SecretKey != a.SecretKey || rec.Parent != rustfstest.DefaultAccessKey {
				t.Errorf("stored: parent %q, secret key equal %t", rec.Parent, rec.SecretKey == a.SecretKey)
			}
			info, err := p.client.ServiceAccountInfo(ctx, ak)
			if err != nil {
				t.Fatalf("ServiceAccountInfo: %v", err)
			}
			if info.ParentUser != rustfstest.DefaultAccessKey || info.Status != "on" || info.ImpliedPolicy || info.Name != "teamA-app" {
				t.Errorf("info: %+v", info)
			}
			if !info.PolicyMatches(a.Policy) {
				t.Errorf("the policy read back does not match the one sent:\n%s", info.Policy)
			}
			wider, _ := SessionPolicy([]BucketGrant{{Bucket: "data", Access: ReadWrite}})
			if info.PolicyMatches(wider) {
				t.Error("PolicyMatches accepts another policy")
			}
			if err := p.client.UpdateServiceAccount(ctx, ak, ServiceAccountUpdate{Policy: &wider}); err != nil {
				t.Fatalf("UpdateServiceAccount(policy): %v", err)
			}
			if info, _ := p.client.ServiceAccountInfo(ctx, ak); !info.PolicyMatches(wider) {
				t.Errorf("after the update the policy is still:\n%s", info.Policy)
			}
			if err := p.client.DeleteServiceAccount(ctx, ak); err != nil {
				t.Fatalf("DeleteServiceAccount: %v", err)
			}
			if _, err := p.client.ServiceAccountInfo(ctx, ak); !IsServiceAccountNotFound(err) {
				t.Errorf("info after delete: want not found, got %v", err)
			}
			if err := p.client.DeleteServiceAccount(ctx, ak); err != nil {
				t.Errorf("deleting a deleted account: want success, got %v", err)
			}
		})
	}
}

// An account without a session policy has its parent's access; PolicyMatches
// must never call that up to date.
func TestPolicyMatchesRefusesImpliedPolicy(t *testing.T) {
	p := newPair(t, rustfstest.ModeGA)
	if err := p.local.SeedServiceAccount(rustfstest.ServiceAccountRecord{AccessKey: "XPIMPLIED", SecretKey: "implied-secret"}); err != nil {
		t.Fatal(err)
	}
	info, err := p.client.ServiceAccountInfo(context.Background(), "XPIMPLIED")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := SessionPolicy([]BucketGrant{{Bucket: "data", Access: ReadOnly}})
	if !info.ImpliedPolicy || info.PolicyMatches(want) {
		t.Errorf("implied %t, matches %t; want implied and no match", info.ImpliedPolicy, info.PolicyMatches(want))
	}
}

// Requests that RustFS would misread (no policy, an empty policy, a policy
// without Version) or refuse are refused locally, and nothing is sent.
func TestServiceAccountRequestsCheckedLocally(t *testing.T) {
	valid := newAccount(t, "XPVALID")
	noVersion := valid.Policy
	noVersion.Version = ""
	cases := map[string]struct {
		add    func(a *NewServiceAccount) // nil: call update
		update ServiceAccountUpdate
		want   string
	}{
		"AddWithoutPolicy":     {add: func(a *NewServiceAccount) { a.Policy = Policy{} }, want: "Version"},
		"AddWithoutStatements": {add: func(a *NewServiceAccount) { a.Policy = Policy{Version: PolicyVersion} }, want: "no statements"},
		"AddShortSecret":       {add: func(a *NewServiceAccount) { a.SecretKey = "short" }, want: "secret key is 5 bytes"},
		"AddSpaceInAccessKey":  {add: func(a *NewServiceAccount) { a.AccessKey = "XP VALID" }, want: "whitespace"},
		"AddBadName":           {add: func(a *NewServiceAccount) { a.Name = "team/a" }, want: "name"},
		"UpdateEmptyPolicy":    {update: ServiceAccountUpdate{Policy: &Policy{}}, want: "Version"},
		"UpdateNoVersion":      {update: ServiceAccountUpdate{Policy: &noVersion}, want: "Version"},
		"UpdateNothing":        {want: "nothing to update"},
		"UpdateLongSecret":     {update: ServiceAccountUpdate{SecretKey: strings.Repeat("s", 41)}, want: "secret key is 41 bytes"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, rustfstest.ModeGA)
			var err error
			if tc.add != nil {
				a := valid
				tc.add(&a)
				err = p.client.AddServiceAccount(context.Background(), a)
			} else {
				err = p.client.UpdateServiceAccount(context.Background(), "XPVALID", tc.update)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error containing %q, got %v", tc.want, err)
			}
			if n := len(p.local.Requests()); n != 0 {
				t.Errorf("a request refused locally sent %d requests", n)
			}
		})
	}
}

func TestServiceAccountErrors(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeGA, rustfstest.WithUser("viewer", "viewer-secret", "admin:ListServiceAccounts"))
	a := newAccount(t, "XPFIRST")
	if err := p.client.AddServiceAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := p.client.AddServiceAccount(ctx, a); !IsAccessKeyInUse(err) {
		t.Errorf("adding an existing key: want IsAccessKeyInUse, got %v", err)
	}
	if err := p.client.UpdateServiceAccount(ctx, "XPNOBODY", ServiceAccountUpdate{SecretKey: "a-new-secret"}); !IsServiceAccountNotFound(err) {
		t.Errorf("updating an unknown account: want IsServiceAccountNotFound, got %v", err)
	}
	viewer := p.clientAs(t, "viewer", "viewer-secret")
	if err := viewer.AddServiceAccount(ctx, newAccount(t, "XPSECOND")); !IsAccessDenied(err) {
		t.Errorf("adding without admin:CreateServiceAccount: want IsAccessDenied, got %v", err)
	}
	err := viewer.DeleteServiceAccount(ctx, "XPFIRST")
	if err == nil || !strings.Contains(err.Error(), "refuses to delete it") {
		t.Errorf("a credential that may read but not delete: want an error, got %v", err)
	}
	if _, ok := p.local.ServiceAccount("XPFIRST"); !ok {
		t.Error("the account is gone")
	}
}
