package owner

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

var t0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func tier(ns, name string, created time.Duration, endpoint string, deleted bool) *v1alpha1.Tier {
	t := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: name, UID: types.UID(ns + "/" + name),
		CreationTimestamp: metav1.NewTime(t0.Add(created)),
		Annotations:       map[string]string{"endpoint": endpoint},
	}}
	if deleted {
		now := metav1.NewTime(t0)
		t.DeletionTimestamp = &now
	}
	return t
}

func endpointOf(_ context.Context, mg resource.ModernManaged) (string, error) {
	e := mg.GetAnnotations()["endpoint"]
	if e == "broken" {
		return "", errors.New("no ProviderConfig")
	}
	return e, nil
}

func TestFind(t *testing.T) {
	self := tier("b", "self", time.Minute, "http://rustfs", false)
	cases := map[string]struct {
		reason string
		peers  []*v1alpha1.Tier
		want   string
	}{
		"Alone":         {reason: "A resource without peers owns the object.", want: "b/self"},
		"OlderPeer":     {reason: "An older peer on the same endpoint owns it.", peers: []*v1alpha1.Tier{self, tier("a", "old", 0, "http://rustfs", false)}, want: "a/old"},
		"YoungerPeer":   {reason: "A younger peer does not.", peers: []*v1alpha1.Tier{tier("a", "young", time.Hour, "http://rustfs", false)}, want: "b/self"},
		"OtherEndpoint": {reason: "A peer on another endpoint is a different RustFS.", peers: []*v1alpha1.Tier{tier("a", "old", 0, "http://other", false)}, want: "b/self"},
		"DeletedPeer":   {reason: "When the owner is deleted the next one takes over.", peers: []*v1alpha1.Tier{tier("a", "old", 0, "http://rustfs", true)}, want: "b/self"},
		"BrokenPeer":    {reason: "A peer whose ProviderConfig cannot be read owns nothing.", peers: []*v1alpha1.Tier{tier("a", "old", 0, "broken", false)}, want: "b/self"},
		"TieByName":     {reason: "Equal creation times are ordered by namespace, then name.", peers: []*v1alpha1.Tier{tier("a", "same", time.Minute, "http://rustfs", false)}, want: "a/same"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			peers := make([]resource.ModernManaged, 0, len(tc.peers))
			for _, p := range tc.peers {
				peers = append(peers, p)
			}
			got := Find(context.Background(), self, "http://rustfs", peers, endpointOf)
			if id := got.GetNamespace() + "/" + got.GetName(); id != tc.want {
				t.Errorf("%s\nFind(...): want %s, got %s", tc.reason, tc.want, id)
			}
		})
	}
}
