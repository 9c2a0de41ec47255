package bucketaccess

import (
	"testing"
	"time"

	"github.com/onsi/gomega"
	kerrors "k8s.io/apimachinery/pkg/api/errors"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Issue 26, point 5: the owner's Bucket, which keeps its bucket when
// deleted, goes away while namespace heir has a Bucket of the same bucket
// and the owner's BucketAccess still has a key to it. Under v0.2 heir's
// Bucket took the bucket over while the owner's key kept working on it.
// With custody records there is no handover across namespaces: the record
// is Released for the owner's namespace, heir's Bucket stays a duplicate
// and writes nothing, so no key of the former owner works on a bucket
// another namespace holds.
func TestCustodyHandoverOnDeletionStaysInTheNamespace(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Second, v1alpha1.NameScopeCluster, "owner", "heir")
	owner, heir := ns[0], ns[1]
	name := owner + "-data"
	mine := bucketObject(owner, "data", name, c.config)
	mine.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
		xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}
	c.create(mine)
	c.waitBucket(mine, "True/Available")
	reader := c.access(owner, "reader", withGrants(grant(name, v1alpha1.AccessReadWrite, "")))
	c.waitFor(reader, xpv2.TypeReady, isReady, 20*time.Second)
	theirs := bucketObject(heir, "data", name, c.config)
	c.create(theirs)
	c.waitBucket(theirs, "False/"+string(v1alpha1.ReasonDuplicateBucket))

	if err := env.Client.Delete(ctx(t), mine); err != nil {
		t.Fatal(err)
	}
	c.g.Eventually(func() bool {
		return kerrors.IsNotFound(env.Client.Get(ctx(t), clientKey(mine), &v1alpha1.Bucket{}))
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.BeTrue(), "owner's Bucket deleted")
	if !c.rfs.HasBucket(name) {
		t.Fatalf("bucket %s was deleted with a Bucket whose policies keep it", name)
	}
	writes := c.rfs.Count("bucket.putVersioning") + c.rfs.Count("bucket.create")

	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if got := c.bucketCondition(theirs); got != "False/"+string(v1alpha1.ReasonDuplicateBucket) {
			t.Fatalf("heir's Bucket after the owner's was deleted: got %s, want False/DuplicateBucket (no handover across namespaces)", got)
		}
		time.Sleep(250 * time.Millisecond)
	}
	if n := c.rfs.Count("bucket.putVersioning") + c.rfs.Count("bucket.create") - writes; n != 0 {
		t.Errorf("bucket writes after the owner's Bucket was deleted: want none, got %d", n)
	}
	expectReleasedFor(t, name, owner)
}

// expectReleasedFor fails the test unless the record of bucket name is
// Released for namespace ns, with no holder.
func expectReleasedFor(t *testing.T, name, ns string) {
	t.Helper()
	l := &v1alpha1.CustodyRecordList{}
	if err := env.Client.List(ctx(t), l); err != nil {
		t.Fatal(err)
	}
	for _, r := range l.Items {
		if r.Spec.Kind == v1alpha1.CustodyBucket && r.Spec.Object == name {
			if r.Spec.Holder != nil || r.Spec.Phase != v1alpha1.PhaseReleased || r.Spec.ReleasedFor != ns {
				t.Errorf("record of %s: want Released for %s with no holder, got %+v", name, ns, r.Spec)
			}
			return
		}
	}
	t.Errorf("no custody record of bucket %s", name)
}

// A service-account add whose answer is lost (RustFS made the key) ends
// with the owner's BucketAccess Ready on one key that works, and another
// namespace's BucketAccess for the owner's bucket, created meanwhile,
// refused with no key (issue 26 acceptance: lost answers end Created with
// no claim by the other namespace).
func TestCustodyLostAnswerOnServiceAccountAddLeavesTheOtherNamespaceNothing(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Second, v1alpha1.NameScopeCluster, "owner", "other")
	owner, other := ns[0], ns[1]
	name := owner + "-data"
	c.bucket(owner, name)
	c.rfs.InjectFault(rustfstest.RouteAddServiceAccount, rustfstest.Fault{Lost: rustfstest.LossReset, Times: 1})
	reader := c.access(owner, "reader", withGrants(grant(name, v1alpha1.AccessReadOnly, "")))
	c.g.Eventually(func() int { return len(c.rfs.ServiceAccounts()) }, 20*time.Second, 50*time.Millisecond).
		Should(gomega.BeNumerically(">=", 1), "RustFS made the key whose answer was lost")
	rival := c.access(other, "reader", withGrants(grant(name, v1alpha1.AccessReadOnly, "")))

	c.waitFor(reader, xpv2.TypeReady, isReady, 20*time.Second)
	c.waitFor(rival, xpv2.TypeReady, "False/"+string(v1alpha1.ReasonBucketManagedElsewhere), 20*time.Second)
	ak, sk := c.key(reader, "")
	if got := c.ops(ak, sk).list(name, ""); got != "" {
		t.Errorf("the owner's key lists its bucket: got %s", got)
	}
	for _, sa := range c.rfs.ServiceAccounts() {
		if sa.AccessKey != ak {
			t.Errorf("keys in RustFS: want only the owner's %s, also got %s", ak, sa.AccessKey)
		}
	}
}
