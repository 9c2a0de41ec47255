package bucketaccess

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// keyRoutes are the RustFS routes that create or change keys and users.
var keyRoutes = []string{rustfstest.RouteAddServiceAccount, rustfstest.RouteUpdateServiceAccount,
	rustfstest.RouteDeleteServiceAccount, rustfstest.RouteAddUser, rustfstest.RouteSetUserPolicy, rustfstest.RouteAddCannedPolicy}

// A refusalCase is a BucketAccess in namespace "thief" that the tenancy
// rules must refuse.
type refusalCase struct {
	reason string
	scope  v1alpha1.NameScope
	// bucket returns the bucket the BucketAccess names, given the
	// namespaces owner (which has a Bucket owner+"-data") and thief.
	bucket func(owner, thief string) string
	ready  string
}

func refusalCases() map[string]refusalCase {
	return map[string]refusalCase{
		"OtherNamespacesBucket": {
			reason: "A bucket a Bucket of another namespace owns is BucketManagedElsewhere.",
			scope:  v1alpha1.NameScopeCluster,
			bucket: func(owner, _ string) string { return owner + "-data" },
			ready:  "False/" + string(v1alpha1.ReasonBucketManagedElsewhere),
		},
		"UnmanagedBucket": {
			reason: "With nameScope Cluster, a bucket no Bucket of the namespace owns is BucketNotManaged.",
			scope:  v1alpha1.NameScopeCluster,
			bucket: func(_, thief string) string { return thief + "-nobody" },
			ready:  "False/" + string(v1alpha1.ReasonBucketNotManaged),
		},
		"OutsideTheSlice": {
			reason: "With nameScope NamespacePrefix, a bucket outside the namespace's slice is NameOutsideNamespace.",
			scope:  v1alpha1.NameScopeNamespacePrefix,
			bucket: func(owner, _ string) string { return owner + "-data" },
			ready:  "False/" + string(v1alpha1.ReasonNameOutsideNamespace),
		},
	}
}

// TestOtherNamespacesBucketsAreRefused runs with two namespaces on the real
// API server: a BucketAccess that names a bucket its namespace may not be
// granted says why, creates no key or user in RustFS, and neither reads
// nor writes its connection Secret. Its message never names the other
// namespace.
func TestOtherNamespacesBucketsAreRefused(t *testing.T) {
	testenv.Skip(t)
	for name, tc := range refusalCases() {
		t.Run(name, func(t *testing.T) {
			c, ns := startCluster(t, time.Hour, tc.scope, "owner", "thief")
			owner, thief := ns[0], ns[1]
			c.bucket(owner, owner+"-data")
			expectRefusedAccess(t, c, tc.reason, owner, thief, tc.bucket(owner, thief), tc.ready)
		})
	}
}

// TestLongerPrefixBucketsAreRefused: with nameScope NamespacePrefix, a
// namespace "team" is not granted a bucket of namespace "team-a"'s slice,
// though its name starts with "team-": the longest prefix owns it. The
// bucket exists and no Bucket manages it, which would grant it to team's
// slice were the slices to overlap.
func TestLongerPrefixBucketsAreRefused(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Hour, v1alpha1.NameScopeNamespacePrefix, "team")
	team, teamA := ns[0], ns[0]+"-a"
	c.create(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: teamA}})
	c.rfs.CreateBucket(teamA+"-data", false)
	expectRefusedAccess(t, c, "A bucket of a longer namespace prefix is NameOutsideNamespace.", teamA, team, teamA+"-data",
		"False/"+string(v1alpha1.ReasonNameOutsideNamespace))
}

// expectRefusedAccess creates a BucketAccess in thief that names bucket and
// checks that it is refused with ready, creates no key or user in RustFS,
// and neither reads nor writes its connection Secret; its message never
// names namespace owner.
func expectRefusedAccess(t *testing.T, c *cluster, reason, owner, thief, bucket, ready string) {
	t.Helper()
	before := counts(c)
	cr := c.access(thief, "steal", withGrants(grant(bucket, v1alpha1.AccessReadOnly, "")))
	got := c.waitFor(cr, xpv2.TypeReady, ready, 20*time.Second)
	if msg := got.GetCondition(xpv2.TypeReady).Message; strings.Contains(msg, owner+"/") || strings.Contains(msg, "namespace "+owner) {
		t.Errorf("%s\nthe message names the other namespace: %q", reason, msg)
	}
	if after := counts(c); after != before {
		t.Errorf("%s\nkey and user writes: before %v, after %v", reason, before, after)
	}
	if n := len(c.rfs.ServiceAccounts()); n != 0 {
		t.Errorf("%s\n%d service accounts exist", reason, n)
	}
	if s := c.secret(cr); s != nil {
		t.Errorf("%s\nthe connection Secret was created", reason)
	}
	if n := c.requests.SecretReads(thief, "steal-key"); n != 0 {
		t.Errorf("%s\nthe connection Secret was read %d times", reason, n)
	}
}

// counts returns the number of requests to each key route.
func counts(c *cluster) [6]int {
	var out [6]int
	for i, r := range keyRoutes {
		out[i] = c.rfs.Count(r)
	}
	return out
}

// TestKeysOfTwoNamespacesHaveTwoParents: each namespace's keys are under
// its own parent user, so a key of one namespace cannot revoke the other's
// (docs/multi-tenancy.md).
func TestKeysOfTwoNamespacesHaveTwoParents(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Hour, v1alpha1.NameScopeNamespacePrefix, "alpha", "beta")
	var keys [2]*v1alpha1.BucketAccess
	for i, n := range ns {
		c.bucket(n, n+"-data")
		keys[i] = c.access(n, "app", withGrants(grant(n+"-data", v1alpha1.AccessReadWrite, "")))
	}
	var parents [2]string
	for i, cr := range keys {
		parents[i] = c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second).Status.AtProvider.ParentUser
	}
	if parents[0] == parents[1] || parents[0] == "" || parents[0] == adminAK {
		t.Fatalf("parent users: %q", parents)
	}
	ak, sk := c.key(keys[0], "")
	bak, _ := c.key(keys[1], "")
	if got := c.ops(ak, sk).get(ns[1]+"-data", "x"); got != "AccessDenied" {
		t.Errorf("alpha's key on beta's bucket: got %q, want AccessDenied", got)
	}
	alpha, err := rustfs.New(rustfs.Config{Endpoint: c.rfs.URL(), AccessKey: ak, SecretKey: sk})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alpha.ServiceAccountInfo(ctx(t), bak); !rustfs.IsAccessDenied(err) {
		t.Errorf("alpha's key reads beta's key: got %v, want AccessDenied", err)
	}
	if err := alpha.DeleteServiceAccount(ctx(t), bak); err == nil {
		t.Error("alpha's key revoked beta's key")
	}
	if _, ok := c.rfs.ServiceAccount(bak); !ok {
		t.Error("beta's key does not exist any more")
	}
}
