package rustfs

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// These tests show, over HTTP and through an independent S3 client, what a
// per-namespace parent user changes (docs/rustfs-wire.md §16.8, §20.6,
// §20.7).

// everythingPolicy is a session policy no generator would produce: every S3
// and admin action on everything.
var everythingPolicy = Policy{Version: PolicyVersion, Statements: []Statement{
	{Effect: "Allow", Actions: Values{"s3:*"}, Resources: Values{"arn:aws:s3:::*"}},
	{Effect: "Allow", Actions: Values{"admin:*"}},
}}

// childOf adds, as the admin, a service account under namespace's parent.
func childOf(t *testing.T, p pair, parent ParentUser, ak string, policy Policy) NewServiceAccount {
	t.Helper()
	a := newAccount(t, ak)
	a.Policy, a.TargetUser = policy, parent.Name
	if err := p.client.AddServiceAccount(context.Background(), a); err != nil {
		t.Fatalf("AddServiceAccount under %s: %v", parent.Name, err)
	}
	return a
}

func ensureParent(t *testing.T, p pair, namespace string) ParentUser {
	t.Helper()
	parent := parentFor(t, namespace)
	if _, err := p.client.EnsureParentUser(context.Background(), parent); err != nil {
		t.Fatal(err)
	}
	return parent
}

// A key whose session policy grants everything still cannot leave its
// namespace's bound: other namespaces' buckets, bucket configuration and
// every admin route stay closed.
func TestParentBoundThroughAWSSDK(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := newPair(t, mode)
			p.local.PutObject("team-a-data", "a.txt", []byte("a"))
			p.local.PutObject("team-b-data", "b.txt", []byte("b"))
			parentA := ensureParent(t, p, "team-a")
			ensureParent(t, p, "team-b")
			a := childOf(t, p, parentA, DeriveAccessKey("team-a", "app"), everythingPolicy)
			c := sdk(p.local.URL(), a.AccessKey, a.SecretKey)
			for _, o := range []op{
				getOp("team-a-data", "a.txt", ""), putOp("team-a-data", "new.txt", ""), listOp("team-a-data", "", ""),
				deleteOp("team-a-data", "new.txt", ""), locationOp("team-a-data", ""),
				getOp("team-b-data", "b.txt", "AccessDenied"), putOp("team-b-data", "x.txt", "AccessDenied"),
				listOp("team-b-data", "", "AccessDenied"), createBucketOp("team-a-new", "AccessDenied"),
				versioningOp("team-a-data", "AccessDenied"),
			} {
				if got := code(o.call(ctx, c)); got != o.want {
					t.Errorf("%s: got %q, want %q", o.name, got, o.want)
				}
			}
			admin := p.clientAs(t, a.AccessKey, a.SecretKey)
			if err := admin.AddServiceAccount(ctx, newAccount(t, "XPESCAPE")); !IsAccessDenied(err) {
				t.Errorf("the key created a service account: %v", err)
			}
			if err := admin.UpdateServiceAccount(ctx, a.AccessKey, ServiceAccountUpdate{Policy: &everythingPolicy}); !IsAccessDenied(err) {
				t.Errorf("the key changed its own policy: %v", err)
			}
			if _, err := admin.EnsureParentUser(ctx, parentFor(t, "team-a")); !IsAccessDenied(err) {
				t.Errorf("the key read or rewrote its parent: %v", err)
			}
			if _, err := admin.ListTiers(ctx); !IsAccessDenied(err) {
				t.Errorf("the key listed tiers: %v", err)
			}
		})
	}
}

func createBucketOp(bucket, want string) op {
	return op{"create " + bucket, func(ctx context.Context, c *s3.Client) error {
		_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)})
		return err
	}, want}
}

func versioningOp(bucket, want string) op {
	return op{"versioning " + bucket, func(ctx context.Context, c *s3.Client) error {
		_, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: aws.String(bucket),
			VersioningConfiguration: &s3types.VersioningConfiguration{Status: s3types.BucketVersioningStatusEnabled}})
		return err
	}, want}
}

// With one parent per namespace, a namespace's key cannot list, read or
// revoke another namespace's keys; keys of one namespace still can (the
// documented limit of docs/rustfs-wire.md §16.8).
func TestSeparateParentsCloseTheSiblingHole(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeGA)
	parentA, parentB := ensureParent(t, p, "team-a"), ensureParent(t, p, "team-b")
	readA, _ := SessionPolicy([]BucketGrant{{Bucket: "team-a-data", Access: ReadOnly}})
	readB, _ := SessionPolicy([]BucketGrant{{Bucket: "team-b-data", Access: ReadOnly}})
	a1 := childOf(t, p, parentA, DeriveAccessKey("team-a", "one"), readA)
	a2 := childOf(t, p, parentA, DeriveAccessKey("team-a", "two"), readA)
	b1 := childOf(t, p, parentB, DeriveAccessKey("team-b", "one"), readB)
	asA1 := p.clientAs(t, a1.AccessKey, a1.SecretKey)
	if got := listAccounts(t, asA1); len(got) != 2 || got[0] == b1.AccessKey || got[1] == b1.AccessKey {
		t.Errorf("a team-a key lists %v; want the two team-a keys only", got)
	}
	if _, err := asA1.ServiceAccountInfo(ctx, b1.AccessKey); !IsAccessDenied(err) {
		t.Errorf("a team-a key read a team-b key's policy: %v", err)
	}
	if err := asA1.DeleteServiceAccount(ctx, b1.AccessKey); err == nil {
		t.Error("a team-a key revoked a team-b key")
	}
	if _, ok := p.local.ServiceAccount(b1.AccessKey); !ok {
		t.Fatal("the team-b key is gone")
	}
	if _, err := asA1.ServiceAccountInfo(ctx, a2.AccessKey); err != nil {
		t.Errorf("same-parent info (documented limit): %v", err)
	}
	if err := asA1.DeleteServiceAccount(ctx, a2.AccessKey); err != nil {
		t.Errorf("same-parent delete (documented limit): %v", err)
	}
}

// listAccounts lists service accounts as c, through the raw route (the client
// has no list call).
func listAccounts(t *testing.T, c *Client) []string {
	t.Helper()
	resp, err := c.do(context.Background(), request{method: http.MethodGet, path: adminPrefix + "/list-service-accounts"})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	var out struct {
		Accounts []struct {
			AccessKey string `json:"accessKey"`
		} `json:"accounts"`
	}
	if err := json.Unmarshal(resp.body, &out); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range out.Accounts {
		keys = append(keys, a.AccessKey)
	}
	return keys
}

// The hole the parents close: accounts created under the admin credential
// (no TargetUser) are all siblings, so one namespace's key revokes another's.
func TestSharedAdminParentLeavesTheSiblingHole(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeGA)
	a1 := newAccount(t, DeriveAccessKey("team-a", "one"))
	b1 := newAccount(t, DeriveAccessKey("team-b", "one"))
	for _, a := range []NewServiceAccount{a1, b1} {
		if err := p.client.AddServiceAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	asA1 := p.clientAs(t, a1.AccessKey, a1.SecretKey)
	if got := listAccounts(t, asA1); len(got) != 2 {
		t.Errorf("under a shared parent a key lists %v; want both keys", got)
	}
	if err := asA1.DeleteServiceAccount(ctx, b1.AccessKey); err != nil {
		t.Errorf("under a shared parent a key revokes its sibling (docs/rustfs-wire.md §16.8): %v", err)
	}
}

// A Deny for a longer namespace's prefix in the parent's bound takes that
// namespace's buckets from every key of the parent, whatever its session
// policy grants, and leaves the rest of the slice (docs/rustfs-wire.md
// §20.6: the parent's policy is evaluated Deny first). Lifting the Deny
// gives the buckets back; nothing is deleted.
func TestLongerNamespaceDeniedThroughAWSSDK(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := newPair(t, mode)
			p.local.PutObject("team-a-x", "a.txt", []byte("a"))
			p.local.PutObject("team-b", "b.txt", []byte("b"))
			parent := ensureParent(t, p, "team")
			grants := []BucketGrant{{Bucket: "team-a-x", Access: ReadWrite}, {Bucket: "team-b", Access: ReadWrite}}
			session, err := SessionPolicy(grants)
			if err != nil {
				t.Fatal(err)
			}
			a := childOf(t, p, parent, DeriveAccessKey("team", "app"), session)
			c := sdk(p.local.URL(), a.AccessKey, a.SecretKey)
			narrowed, err := NewParentUser("team", "team-", "team-a-")
			if err != nil {
				t.Fatal(err)
			}
			for _, step := range []struct {
				parent ParentUser
				aWant  string
			}{{parent, ""}, {narrowed, "AccessDenied"}, {parent, ""}} {
				if _, err := p.client.EnsureParentUser(ctx, step.parent); err != nil {
					t.Fatal(err)
				}
				for _, o := range []op{getOp("team-a-x", "a.txt", step.aWant), putOp("team-a-x", "new.txt", step.aWant),
					getOp("team-b", "b.txt", ""), putOp("team-b", "new.txt", "")} {
					if got := code(o.call(ctx, c)); got != o.want {
						t.Errorf("deny %v: %s: got %q, want %q", step.parent.Policy.Statements[1:], o.name, got, o.want)
					}
				}
			}
			if got := p.local.Objects("team-a-x"); !slices.Contains(got, "a.txt") {
				t.Errorf("team-a-x holds %q; a.txt is gone", got)
			}
		})
	}
}
