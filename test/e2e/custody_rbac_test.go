package e2e

import (
	"testing"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A tenant bound in its namespace to a crossplane-edit-like role, which
// may edit its own resources and their status, may do nothing at all with
// custody records: they are cluster-scoped, and a RoleBinding grants
// nothing cluster-scoped (issue 26: "the tenant is Forbidden on every verb
// against records").
func TestCustodyTenantIsForbiddenOnEveryVerbAgainstRecords(t *testing.T) {
	testenv.Skip(t)
	ctx := t.Context()
	ns := newNamespace(t)
	tenant := tenantClient(t, ns)

	b := expectEditor(t, tenant, ns)

	held := &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: v1alpha1.CustodyRecordName("e2e-forbidden", v1alpha1.CustodyBucket, ns)},
		Spec: v1alpha1.CustodyRecordSpec{Identity: "e2e-forbidden", Kind: v1alpha1.CustodyBucket, Object: ns,
			Holder: &v1alpha1.CustodyHolder{Namespace: "elsewhere", Name: "theirs", UID: "uid-theirs"}, Phase: v1alpha1.PhaseCreated}}
	if err := env.Client.Create(ctx, held); err != nil {
		t.Fatal(err)
	}
	mine := held.DeepCopy()
	mine.Spec.Holder = &v1alpha1.CustodyHolder{Namespace: ns, Name: "mine", UID: b.GetUID()}
	forged := &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: "forged-" + ns}, Spec: mine.Spec}
	body := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"holder":{"namespace":"`+ns+`"}}}`))

	verbs := map[string]func() error{
		"get":              func() error { return tenant.Get(ctx, types.NamespacedName{Name: held.Name}, &v1alpha1.CustodyRecord{}) },
		"list":             func() error { return tenant.List(ctx, &v1alpha1.CustodyRecordList{}) },
		"create":           func() error { return tenant.Create(ctx, forged) },
		"update":           func() error { return tenant.Update(ctx, mine) },
		"patch":            func() error { return tenant.Patch(ctx, held.DeepCopy(), body) },
		"delete":           func() error { return tenant.Delete(ctx, held.DeepCopy()) },
		"deletecollection": func() error { return tenant.DeleteAllOf(ctx, &v1alpha1.CustodyRecord{}) },
		"watch": func() error {
			wi, err := tenant.Watch(ctx, &v1alpha1.CustodyRecordList{})
			if err == nil {
				wi.Stop()
			}
			return err
		},
	}
	for verb, do := range verbs {
		if err := do(); !kerrors.IsForbidden(err) {
			t.Errorf("%s custodyrecords as the tenant: want Forbidden, got %v", verb, err)
		}
	}

	got := &v1alpha1.CustodyRecord{}
	if err := env.Client.Get(ctx, types.NamespacedName{Name: held.Name}, got); err != nil {
		t.Fatalf("the record the tenant tried to change: %v", err)
	}
	if got.Spec.Holder.Namespace != "elsewhere" {
		t.Errorf("holder of the record after the tenant's attempts: want namespace elsewhere, got %s", got.Spec.Holder.Namespace)
	}
}

// expectEditor checks that tenant really holds the role in ns: it creates
// a Bucket and patches its status. It returns the Bucket.
func expectEditor(t *testing.T, tenant client.Client, ns string) *v1alpha1.Bucket {
	t.Helper()
	b := bucket(ns, "mine", withBucketProviderConfig("none"))
	if err := tenant.Create(t.Context(), b); err != nil {
		t.Fatalf("tenant creates a Bucket in its namespace: %v", err)
	}
	patch := client.RawPatch(types.MergePatchType, []byte(`{"status":{"custody":{"object":"mine"}}}`))
	if err := tenant.Status().Patch(t.Context(), b, patch); err != nil {
		t.Fatalf("tenant patches its Bucket's status, as crossplane-edit allows: %v", err)
	}
	return b
}
