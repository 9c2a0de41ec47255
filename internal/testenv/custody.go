package testenv

import (
	"context"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// EditRole is a ClusterRole like Crossplane's crossplane-edit as far as
// the provider's kinds go: every verb on every resource of the provider's
// group, status included, and on Secrets. Bound in a namespace by a
// RoleBinding, it grants nothing cluster-scoped, custody records included.
const EditRole = "tenant-crossplane-edit"

// Tenant returns a client that acts as user, bound only by a RoleBinding
// in namespace ns to EditRole (created if absent). It impersonates the
// user through the administrator's config, so it works on any Env.
func (e *Env) Tenant(t testing.TB, ns, user string) client.Client {
	t.Helper()
	ctx := context.Background()
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: EditRole}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{v1alpha1.Group}, Resources: []string{"*", "*/status"}, Verbs: []string{"*"}},
		{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"*"}},
	}}
	if err := e.Client.Create(ctx, role); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatalf("cannot create ClusterRole %s: %v", EditRole, err)
	}
	rb := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: user},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: EditRole},
		Subjects: []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}}}
	if err := e.Client.Create(ctx, rb); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatalf("cannot bind %s in %s: %v", user, ns, err)
	}
	cfg := rest.CopyConfig(e.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user}
	c, err := client.New(cfg, client.Options{Scheme: e.Scheme})
	if err != nil {
		t.Fatalf("cannot make a client for %s: %v", user, err)
	}
	return c
}

// Records returns the custody records of kind on the API server.
func (e *Env) Records(t testing.TB, kind v1alpha1.CustodyKind) []v1alpha1.CustodyRecord {
	t.Helper()
	l := &v1alpha1.CustodyRecordList{}
	if err := e.Client.List(context.Background(), l); err != nil {
		t.Fatalf("cannot list custody records: %v", err)
	}
	var out []v1alpha1.CustodyRecord
	for _, r := range l.Items {
		if r.Spec.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// Hold creates, as the platform would, the record of object of kind on
// identity held by o (a Tier, Bucket or BucketLifecycle), with phase p.
func (e *Env) Hold(t testing.TB, identity string, kind v1alpha1.CustodyKind, object string, o client.Object, p v1alpha1.CustodyPhase) *v1alpha1.CustodyRecord {
	t.Helper()
	r := &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: v1alpha1.CustodyRecordName(identity, kind, object)},
		Spec: v1alpha1.CustodyRecordSpec{Identity: identity, Kind: kind, Object: object, Phase: p,
			Holder: &v1alpha1.CustodyHolder{Namespace: o.GetNamespace(), Name: o.GetName(), UID: o.GetUID()}}}
	if err := e.Client.Create(context.Background(), r); err != nil {
		t.Fatalf("cannot create custody record %s: %v", r.Name, err)
	}
	return r
}
