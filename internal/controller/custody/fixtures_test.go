package custody

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

var t0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

const (
	deployment = "deployment:0c6f"
	otherID    = "deployment:9a11"
	object     = "COLD"
)

// A peerModifier changes a Tier fixture.
type peerModifier func(*v1alpha1.Tier)

// peer returns a Tier ns/name created at t0+created, a candidate for object
// on deployment unless modified.
func peer(ns, name string, created time.Duration, mods ...peerModifier) *v1alpha1.Tier {
	t := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: name, UID: types.UID(ns + "/" + name), CreationTimestamp: metav1.NewTime(t0.Add(created)),
	}}
	t.SetCustody(&v1alpha1.Custody{Identity: deployment, Object: object, Config: v1alpha1.ClusterProviderConfigKind,
		Endpoint: "http://rustfs:9000", AccessProvenAt: &metav1.Time{Time: t0}, Eligible: true})
	t.SetManagementPolicies(retainOnly)
	for _, m := range mods {
		m(t)
	}
	return t
}

func unproven(t *v1alpha1.Tier)   { t.Status.Custody.AccessProvenAt = nil }
func ineligible(t *v1alpha1.Tier) { t.Status.Custody.Eligible = false }
func deleting(t *v1alpha1.Tier)   { now := metav1.NewTime(t0); t.DeletionTimestamp = &now }

func onIdentity(id string) peerModifier {
	return func(t *v1alpha1.Tier) { t.Status.Custody.Identity = id }
}
