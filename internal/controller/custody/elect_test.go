package custody

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
func noRecord(t *v1alpha1.Tier)   { t.Status.Custody = nil }
func deleting(t *v1alpha1.Tier)   { now := metav1.NewTime(t0); t.DeletionTimestamp = &now }

// viaNamespaced proves access through a namespaced ProviderConfig.
func viaNamespaced(t *v1alpha1.Tier) { t.Status.Custody.Config = v1alpha1.ProviderConfigKind }

// atEndpoint proves access at another endpoint of the same identity.
func atEndpoint(ep string) peerModifier {
	return func(t *v1alpha1.Tier) { t.Status.Custody.Endpoint = ep }
}

func onIdentity(id string) peerModifier {
	return func(t *v1alpha1.Tier) { t.Status.Custody.Identity = id }
}

func forObject(o string) peerModifier {
	return func(t *v1alpha1.Tier) { t.Status.Custody.Object = o }
}

func subjects(ts ...*v1alpha1.Tier) []Subject {
	out := make([]Subject, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

func id(s Subject) string {
	if s == nil {
		return "none"
	}
	return s.GetNamespace() + "/" + s.GetName()
}

func TestElect(t *testing.T) {
	self := peer("b", "self", time.Minute)
	cases := map[string]struct {
		reason string
		self   *v1alpha1.Tier
		peers  []*v1alpha1.Tier
		want   string
	}{
		"Alone":          {reason: "A candidate without peers owns the object.", want: "b/self"},
		"OlderPeer":      {reason: "An older candidate owns it, in any namespace.", peers: []*v1alpha1.Tier{self, peer("a", "old", 0)}, want: "a/old"},
		"YoungerPeer":    {reason: "A younger candidate does not.", peers: []*v1alpha1.Tier{peer("a", "young", time.Hour)}, want: "b/self"},
		"OlderUnproven":  {reason: "The oldest resource without proven access never owns.", peers: []*v1alpha1.Tier{peer("a", "old", 0, unproven)}, want: "b/self"},
		"OlderNoRecord":  {reason: "A resource that never read RustFS has no record and never owns.", peers: []*v1alpha1.Tier{peer("a", "old", 0, noRecord)}, want: "b/self"},
		"OlderRefused":   {reason: "A resource the tenancy rules refuse is not eligible.", peers: []*v1alpha1.Tier{peer("a", "old", 0, ineligible)}, want: "b/self"},
		"OlderDeleting":  {reason: "An owner being deleted hands over.", peers: []*v1alpha1.Tier{peer("a", "old", 0, deleting)}, want: "b/self"},
		"OtherRustFS":    {reason: "Proven access to another deployment is another object.", peers: []*v1alpha1.Tier{peer("a", "old", 0, onIdentity(otherID))}, want: "b/self"},
		"StaleObject":    {reason: "A record about another object does not count.", peers: []*v1alpha1.Tier{peer("a", "old", 0, forObject("WARM"))}, want: "b/self"},
		"TieByNamespace": {reason: "Equal creation times are ordered by namespace, then name.", peers: []*v1alpha1.Tier{peer("a", "same", time.Minute)}, want: "a/same"},
		"OlderNamespaced": {reason: "A namespace's own ProviderConfig never outranks the platform's, whatever deployment ID its RustFS reports.",
			peers: []*v1alpha1.Tier{peer("a", "old", 0, viaNamespaced)}, want: "b/self"},
		"SelfNamespaced": {reason: "A resource proven through a namespaced ProviderConfig yields to a younger platform one.",
			self: peer("b", "self", 0, viaNamespaced), peers: []*v1alpha1.Tier{peer("a", "young", time.Hour)}, want: "a/young"},
		"NamespacedElsewhere": {reason: "Two namespaces' own ProviderConfigs compete only at one endpoint: a server that claims the deployment ID elsewhere blocks nothing.",
			self: peer("b", "self", time.Hour, viaNamespaced), peers: []*v1alpha1.Tier{peer("a", "fake", 0, viaNamespaced, atEndpoint("http://fake:9000"))}, want: "b/self"},
		"NamespacedSameEndpoint": {reason: "At one endpoint, the older of two namespaced claims owns.",
			self: peer("b", "self", time.Hour, viaNamespaced), peers: []*v1alpha1.Tier{peer("a", "old", 0, viaNamespaced)}, want: "a/old"},
		"PlatformAtAnotherSpelling": {reason: "A platform claim competes with a namespaced one at any endpoint of the same deployment.",
			self: peer("b", "self", 0, viaNamespaced, atEndpoint("http://localhost:9000")), peers: []*v1alpha1.Tier{peer("a", "young", time.Hour)}, want: "a/young"},
		"SelfUnproven": {reason: "Without proven access the resource owns nothing, even alone.",
			self: peer("b", "self", time.Minute, unproven), want: "none"},
		"HandOverToEligible": {reason: "After the owner, the next eligible candidate owns, skipping ineligible older ones.",
			self:  peer("b", "self", time.Hour, ineligible),
			peers: []*v1alpha1.Tier{peer("a", "owner", 0, deleting), peer("a", "refused", time.Minute, ineligible), peer("a", "next", 2*time.Minute)},
			want:  "a/next"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := self
			if tc.self != nil {
				s = tc.self
			}
			got := Elect(s, Record(s), subjects(tc.peers...))
			if id(got) != tc.want {
				t.Errorf("%s\nElect(...): want %s, got %s", tc.reason, tc.want, id(got))
			}
		})
	}
}

func TestElectUsesTheNewRecordOfSelf(t *testing.T) {
	// The cached copy of self among the peers is stale: it has no record.
	stale := peer("b", "self", time.Minute, noRecord)
	self := peer("b", "self", time.Minute)
	if got := Elect(self, Record(self), subjects(stale)); id(got) != "b/self" {
		t.Errorf("Elect(...): want b/self from its new record, got %s", id(got))
	}
}

func TestOldest(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     []*v1alpha1.Tier
		want   string
	}{
		"None":       {reason: "No resources, no owner.", want: "none"},
		"NoneProven": {reason: "Resources without proven access own nothing.", in: []*v1alpha1.Tier{peer("a", "x", 0, unproven)}, want: "none"},
		"Oldest":     {reason: "The oldest candidate owns.", in: []*v1alpha1.Tier{peer("b", "y", time.Hour), peer("a", "x", time.Minute), peer("c", "z", 0, ineligible)}, want: "a/x"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			view := Proof{Identity: deployment, Endpoint: "http://rustfs:9000", Config: v1alpha1.ClusterProviderConfigKind}
			if got := Oldest(view, object, subjects(tc.in...)); id(got) != tc.want {
				t.Errorf("%s\nOldest(...): want %s, got %s", tc.reason, tc.want, id(got))
			}
		})
	}
}

// Just before a write, an older peer the cache shows without a record is
// read again past the cache: if it has just become a candidate, it owns.
func TestConfirm(t *testing.T) {
	self := peer("b", "self", time.Hour)
	stored := peer("a", "old", 0)
	cases := map[string]struct {
		reason string
		stored []*v1alpha1.Tier
		want   string
	}{
		"OlderJustProven": {reason: "The stored record of an older peer wins over its stale cached copy.", stored: []*v1alpha1.Tier{stored}, want: "a/old"},
		"OlderGone":       {reason: "An older peer deleted since it was cached is skipped.", want: "b/self"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs := make([]client.Object, len(tc.stored))
			for i, s := range tc.stored {
				objs[i] = s
			}
			cached := peer("a", "old", 0, noRecord)
			got, err := Confirm(context.Background(), fakeKube(t, objs...), self, subjects(cached, self))
			if err != nil {
				t.Fatal(err)
			}
			if id(got) != tc.want {
				t.Errorf("%s\nConfirm(...): want %s, got %s", tc.reason, tc.want, id(got))
			}
		})
	}
}

// Hold lets the owner write and stops any other resource with a message
// that names its kind and what it would have written.
func TestHold(t *testing.T) {
	cases := map[string]struct {
		reason string
		self   *v1alpha1.Tier
		want   string
	}{
		"Owner": {reason: "The oldest candidate writes.", self: peer("a", "old", 0)},
		"NotOwner": {reason: "A younger resource writes nothing.", self: peer("b", "self", time.Hour),
			want: "another Tier has just become the owner of this tier name; nothing is written, and the next reconcile reports it"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			old := peer("a", "old", 0)
			err := Hold(context.Background(), fakeKube(t, old), tc.self, subjects(old, tc.self), v1alpha1.TierKind, "this tier name")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("%s\nHold(...): want %q, got %q", tc.reason, tc.want, got)
			}
		})
	}
}
