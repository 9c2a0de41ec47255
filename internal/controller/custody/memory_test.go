package custody

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

func TestBlocked(t *testing.T) {
	fp := memo.Fingerprint("1", "rv", "pc")
	expires := metav1.NewTime(t0.Add(time.Minute))
	cases := map[string]struct {
		reason      string
		stored      *memo.Block
		fingerprint string
		op          string
		now         time.Time
		want        bool
	}{
		"NoBlock":         {reason: "Nothing recorded is not blocked.", fingerprint: fp},
		"SameInputs":      {reason: "A block holds while its inputs are unchanged.", stored: &memo.Block{Reason: "R", Fingerprint: fp}, fingerprint: fp, want: true},
		"ChangedInputs":   {reason: "A new generation lifts the block.", stored: &memo.Block{Fingerprint: fp}, fingerprint: memo.Fingerprint("2", "rv", "pc")},
		"ChangedSecret":   {reason: "A rotated Secret lifts the block.", stored: &memo.Block{Fingerprint: fp}, fingerprint: memo.Fingerprint("1", "rv2", "pc")},
		"ChangedProvider": {reason: "A changed ProviderConfig lifts the block.", stored: &memo.Block{Fingerprint: fp}, fingerprint: memo.Fingerprint("1", "rv", "pc2")},
		"OtherOp":         {reason: "A block of one write never stops another.", stored: &memo.Block{Fingerprint: fp, Op: "add"}, fingerprint: fp, op: "edit"},
		"SameOp":          {reason: "A block of the same write holds.", stored: &memo.Block{Fingerprint: fp, Op: "add"}, fingerprint: fp, op: "add", want: true},
		"NotLapsed":       {reason: "An expiring block holds until it expires.", stored: &memo.Block{Fingerprint: fp, Expires: &expires}, fingerprint: fp, now: t0, want: true},
		"Lapsed":          {reason: "An expiring block lapses by itself.", stored: &memo.Block{Fingerprint: fp, Expires: &expires}, fingerprint: fp, now: t0.Add(time.Minute)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := &v1alpha1.Tier{}
			if tc.stored != nil {
				memo.Set(o, memo.BlockKey, tc.stored)
			}
			got, ok := memo.Blocked(o, tc.fingerprint, tc.op, tc.now)
			if ok != tc.want {
				t.Fatalf("%s\nBlocked(...): want %t, got %t", tc.reason, tc.want, ok)
			}
			if ok && !cmp.Equal(got, *tc.stored) {
				t.Errorf("%s\nBlocked(...): want %+v, got %+v", tc.reason, *tc.stored, got)
			}
		})
	}
}

func TestDesiredStateChanged(t *testing.T) {
	const extName = "crossplane.io/external-name"
	with := func(a map[string]string) *v1alpha1.Tier {
		return &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Annotations: a, Generation: 1}}
	}
	cases := map[string]struct {
		reason   string
		old, new map[string]string
		want     bool
	}{
		"OwnAnnotation":  {reason: "The provider's memory is not desired state.", old: nil, new: map[string]string{memo.BlockKey: "{}"}, want: false},
		"CreatePending":  {reason: "crossplane-runtime's bookkeeping is not desired state.", new: map[string]string{"crossplane.io/external-create-pending": "now"}, want: false},
		"UserAnnotation": {reason: "A user's annotation is desired state.", new: map[string]string{"team": "a"}, want: true},
		"PauseRemoved":   {reason: "Removing an annotation is a change.", old: map[string]string{"crossplane.io/paused": "true"}, want: true},
		"CreateSucceeded": {reason: "The record of a successful Create is the reconciler's own; it requeues by itself.",
			old: map[string]string{extName: "b"}, new: map[string]string{extName: "b", "crossplane.io/external-create-succeeded": "now"}, want: false},
		"ExternalNameSet": {reason: "The initializer's first external name is not desired state.",
			new: map[string]string{extName: "b"}, want: false},
		"ExternalNameSetWithUserAnnotation": {reason: "A user's annotation in the same update still counts.",
			new: map[string]string{extName: "b", "team": "a"}, want: true},
		"ExternalNameChanged": {reason: "A later change of the external name is a user's, and desired state.",
			old: map[string]string{extName: "b"}, new: map[string]string{extName: "c"}, want: true},
		"ExternalNameRemoved": {reason: "Removing the external name is desired state.",
			old: map[string]string{extName: "b"}, new: map[string]string{}, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := DesiredStateChanged().Update(event.UpdateEvent{ObjectOld: with(tc.old), ObjectNew: with(tc.new)})
			if got != tc.want {
				t.Errorf("%s\nUpdate(...): want %t, got %t", tc.reason, tc.want, got)
			}
		})
	}
}

func TestPersistKeepsStatus(t *testing.T) {
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	stored := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "t", Annotations: map[string]string{"gone": "x", "keep": "y"}}}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(stored).WithStatusSubresource(stored).Build()
	ctx := context.Background()

	o := &v1alpha1.Tier{}
	if err := kube.Get(ctx, client.ObjectKeyFromObject(stored), o); err != nil {
		t.Fatal(err)
	}
	o.Status.SetConditions(xpv2.Available())
	memo.Set(o, memo.BlockKey, memo.Block{Reason: "R"})
	memo.Delete(o, "gone")
	if err := memo.Persist(ctx, kube, o, memo.BlockKey, "gone"); err != nil {
		t.Fatal(err)
	}
	if o.Status.GetCondition(xpv2.TypeReady).Status != "True" {
		t.Errorf("Persist(...): in-memory status was lost")
	}
	got := &v1alpha1.Tier{}
	if err := kube.Get(ctx, client.ObjectKeyFromObject(stored), got); err != nil {
		t.Fatal(err)
	}
	if got.ResourceVersion != o.ResourceVersion {
		t.Errorf("Persist(...): want resourceVersion %s, got %s", got.ResourceVersion, o.ResourceVersion)
	}
	want := map[string]string{"keep": "y", memo.BlockKey: `{"reason":"R","message":"","fingerprint":""}`}
	if diff := cmp.Diff(want, got.GetAnnotations()); diff != "" {
		t.Errorf("Persist(...): -want annotations, +got:\n%s", diff)
	}
}
