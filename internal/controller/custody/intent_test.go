package custody

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

var errRefused = errors.New("admission webhook denied the request")

func scheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// An intent to create counts as Created only for the resource that may
// write the object and only while no competing resource records having
// created or adopted it; a refusal drops it.
func TestDecideIntent(t *testing.T) {
	creating := acquired(v1alpha1.AcquiredCreating)
	runDecide(t, map[string]decideCase{
		"LostAnswerNever": {
			reason: "The object the resource was about to create exists: it created it, and adoption Never does not apply.",
			self:   peer("b", "self", 0, creating), exists: true, adoption: v1alpha1.AdoptionNever,
			want: verdict{eligible: true, acquired: v1alpha1.AcquiredCreated},
		},
		"LostAnswerAutomatic": {
			reason: "Under Automatic the record says Created, not Adopted, and nothing is adopted.",
			self:   peer("b", "self", 0, creating), exists: true, adoption: v1alpha1.AdoptionAutomatic,
			want: verdict{eligible: true, acquired: v1alpha1.AcquiredCreated},
		},
		"StillAbsent": {
			reason: "While the object is absent the intent stays; the create that follows writes it again.",
			self:   peer("b", "self", 0, creating), adoption: v1alpha1.AdoptionNever,
			want: verdict{eligible: true, acquired: v1alpha1.AcquiredCreating},
		},
		"PeerCreatedIt": {
			reason: "A competing resource records having created the object: the intent is dropped and Never refuses.",
			self:   peer("b", "self", 0, creating), exists: true, adoption: v1alpha1.AdoptionNever,
			peers: []*v1alpha1.Tier{peer("a", "owner", time.Hour, acquired(v1alpha1.AcquiredCreated))},
			want:  verdict{reason: v1alpha1.ReasonAdoptionNotAllowed},
		},
		"PeerAdoptedItAutomatic": {
			reason: "Even the oldest resource takes a peer's object only by adoption, never through an intent.",
			self:   peer("b", "self", 0, creating), exists: true, adoption: v1alpha1.AdoptionAutomatic,
			peers: []*v1alpha1.Tier{peer("a", "owner", time.Hour, acquired(v1alpha1.AcquiredAdopted))},
			want:  verdict{eligible: true, acquired: v1alpha1.AcquiredAdopted, adopt: true},
		},
		"PeerOnOtherDeployment": {
			reason: "A record of the same name on another RustFS does not compete.",
			self:   peer("b", "self", 0, creating), exists: true, adoption: v1alpha1.AdoptionNever,
			peers: []*v1alpha1.Tier{peer("a", "other", time.Hour, acquired(v1alpha1.AcquiredCreated), onIdentity(otherID))},
			want:  verdict{eligible: true, acquired: v1alpha1.AcquiredCreated},
		},
		"Duplicate": {
			reason: "An older owner makes the intent holder a duplicate, and the intent is dropped.",
			self:   peer("b", "self", time.Hour, creating), exists: true, adoption: v1alpha1.AdoptionAutomatic,
			peers: []*v1alpha1.Tier{peer("a", "old", 0)},
			want:  verdict{reason: v1alpha1.ReasonDuplicateTier, eligible: true},
		},
		"KindRefusal": {
			reason: "A refusal drops the intent, so that it cannot outlive the decision that allowed it.",
			self:   peer("b", "self", 0, creating), adoption: v1alpha1.AdoptionNever,
			refusal: &Refusal{Reason: v1alpha1.ReasonBucketManagedElsewhere, Message: "managed elsewhere"},
			want:    verdict{reason: v1alpha1.ReasonBucketManagedElsewhere},
		},
	})
}

// Intend writes the intent through the status subresource only when the
// record holds no acquisition; Abandon drops only an intent.
func TestIntendAndAbandon(t *testing.T) {
	cases := map[string]struct {
		reason string
		had    v1alpha1.Acquisition
		op     func(context.Context, client.Client, Subject) error
		want   v1alpha1.Acquisition
	}{
		"Intend":         {reason: "No acquisition: the intent is recorded.", op: Intend, want: v1alpha1.AcquiredCreating},
		"IntendKeeps":    {reason: "An acquisition is kept.", had: v1alpha1.AcquiredAdopted, op: Intend, want: v1alpha1.AcquiredAdopted},
		"Abandon":        {reason: "The intent is dropped.", had: v1alpha1.AcquiredCreating, op: Abandon},
		"AbandonCreated": {reason: "A confirmed record is kept.", had: v1alpha1.AcquiredCreated, op: Abandon, want: v1alpha1.AcquiredCreated},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			self := peer("b", "self", 0, acquired(tc.had))
			kube := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(self.DeepCopy()).
				WithStatusSubresource(&v1alpha1.Tier{}).Build()
			if err := tc.op(context.Background(), kube, self); err != nil {
				t.Fatalf("%s\nop: %v", tc.reason, err)
			}
			stored := &v1alpha1.Tier{}
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(self), stored); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, Record(stored).Acquired); diff != "" {
				t.Errorf("%s\nstored acquisition: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// A refused intent is an error that says nothing was written.
func TestIntendRefused(t *testing.T) {
	self := peer("b", "self", 0)
	kube := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(self.DeepCopy()).
		WithStatusSubresource(&v1alpha1.Tier{}).WithInterceptorFuncs(interceptor.Funcs{
		SubResourcePatch: func(context.Context, client.Client, string, client.Object, client.Patch, ...client.SubResourcePatchOption) error {
			return errRefused
		}}).Build()
	err := Intend(context.Background(), kube, self)
	if err == nil || !cmp.Equal(err.Error(), errIntent+": cannot record the resource's custody in status: "+errRefused.Error()) {
		t.Errorf("Intend(...): want the refusal wrapped in %q, got %v", errIntent, err)
	}
}
