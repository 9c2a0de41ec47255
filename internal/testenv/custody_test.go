package testenv

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// TestTenantIsForbiddenOnRecords checks that a tenant bound by a
// namespace RoleBinding to a crossplane-edit-like role may manage its
// namespace's Buckets but is Forbidden on every verb against custody
// records, which are cluster-scoped.
func TestTenantIsForbiddenOnRecords(t *testing.T) {
	Skip(t)
	e, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Stop() })
	ctx := context.Background()
	if err := e.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-b"}}); err != nil {
		t.Fatal(err)
	}
	tenant := e.Tenant(t, "team-b", "bob")
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "data"}}
	if err := tenant.Create(ctx, b); err != nil {
		t.Fatalf("the tenant cannot create a Bucket in its namespace: %v", err)
	}
	held := e.Hold(t, "deployment:1", v1alpha1.CustodyBucket, "data", b, v1alpha1.PhaseCreated)
	cases := map[string]func() error{
		"get":  func() error { return tenant.Get(ctx, client.ObjectKey{Name: held.Name}, &v1alpha1.CustodyRecord{}) },
		"list": func() error { return tenant.List(ctx, &v1alpha1.CustodyRecordList{}) },
		"create": func() error {
			return tenant.Create(ctx, &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: "forged"}})
		},
		"update": func() error { return tenant.Update(ctx, held.DeepCopy()) },
		"delete": func() error { return tenant.Delete(ctx, held.DeepCopy()) },
	}
	for verb, do := range cases {
		t.Run(verb, func(t *testing.T) {
			if err := do(); !kerrors.IsForbidden(err) {
				t.Errorf("tenant %s on a custody record: got %v, want Forbidden", verb, err)
			}
		})
	}
}
