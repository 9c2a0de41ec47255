package bucketaccess

import (
	"testing"
	"time"

	"github.com/onsi/gomega"
	kerrors "k8s.io/apimachinery/pkg/api/errors"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Issue 26, point 5, rule 8: once the platform moves a released bucket's
// record to another namespace's Bucket, no key of the former owner's
// namespace reads it.
func TestCustodyPlatformMoveLeavesNoKeyOfTheFormerOwner(t *testing.T) {
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
	ak, sk := c.key(reader, "")
	theirs := bucketObject(heir, "data", name, c.config)
	c.create(theirs)
	c.waitBucket(theirs, "False/"+string(v1alpha1.ReasonDuplicateBucket))
	if err := env.Client.Delete(ctx(t), mine); err != nil {
		t.Fatal(err)
	}
	c.g.Eventually(func() bool {
		return kerrors.IsNotFound(env.Client.Get(ctx(t), clientKey(mine), &v1alpha1.Bucket{}))
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.BeTrue())

	got := &v1alpha1.Bucket{}
	if err := env.Client.Get(ctx(t), clientKey(theirs), got); err != nil {
		t.Fatal(err)
	}
	c.g.Eventually(func() error {
		l := &v1alpha1.CustodyRecordList{}
		if err := env.Client.List(ctx(t), l); err != nil {
			return err
		}
		for _, r := range l.Items {
			if r.Spec.Kind == v1alpha1.CustodyBucket && r.Spec.Object == name {
				r.Spec.Holder = &v1alpha1.CustodyHolder{Namespace: heir, Name: got.Name, UID: got.UID}
				r.Spec.Phase, r.Spec.ReleasedFor = v1alpha1.PhaseAdopted, ""
				return env.Client.Update(ctx(t), &r)
			}
		}
		return kerrors.NewNotFound(v1alpha1.CustodyRecordGroupResource, name)
	}, 20*time.Second, 100*time.Millisecond).Should(gomega.Succeed(), "platform moves the record")
	c.waitBucket(theirs, "True/Available")
	c.g.Eventually(func() string { return c.ops(ak, sk).list(name, "") }, 20*time.Second, 200*time.Millisecond).
		ShouldNot(gomega.BeEmpty(), "the former owner's key lists the bucket another namespace now holds")
}
