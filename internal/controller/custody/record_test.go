package custody

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func TestProve(t *testing.T) {
	proven := &metav1.Time{Time: t0}
	now := t0.Add(time.Hour)
	fresh := &metav1.Time{Time: now}
	held := v1alpha1.Custody{Identity: deployment, Object: object, AccessProvenAt: proven, Eligible: true, Acquired: v1alpha1.AcquiredCreated}
	cases := map[string]struct {
		reason   string
		rec      v1alpha1.Custody
		identity string
		alias    string
		object   string
		want     v1alpha1.Custody
	}{
		"First": {reason: "The first read proves access now.", identity: deployment, object: object,
			want: v1alpha1.Custody{Identity: deployment, Object: object, AccessProvenAt: fresh}},
		"Again": {reason: "Later reads keep the record, its time and what it acquired.", rec: held, identity: deployment, object: object, want: held},
		"OtherRustFS": {reason: "Another deployment starts afresh: acquisitions hold for one deployment.", rec: held, identity: otherID, object: object,
			want: v1alpha1.Custody{Identity: otherID, Object: object, AccessProvenAt: fresh}},
		"OtherObject": {reason: "Another object starts afresh.", rec: held, identity: deployment, object: "WARM",
			want: v1alpha1.Custody{Identity: deployment, Object: "WARM", AccessProvenAt: fresh}},
		"FromEndpointToDeployment": {reason: "A record made under the endpoint form of the same RustFS carries over to its deployment ID.",
			rec:      v1alpha1.Custody{Identity: "endpoint:http://rustfs:9000", Object: object, AccessProvenAt: proven, Acquired: v1alpha1.AcquiredCreated},
			identity: deployment, alias: "endpoint:http://rustfs:9000", object: object,
			want: v1alpha1.Custody{Identity: deployment, Object: object, AccessProvenAt: proven, Acquired: v1alpha1.AcquiredCreated}},
		"Withdrawn": {reason: "A record whose access was withdrawn is proven again.", rec: Withdraw(held), identity: deployment, object: object,
			want: v1alpha1.Custody{Identity: deployment, Object: object, AccessProvenAt: fresh, Acquired: v1alpha1.AcquiredCreated}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Prove(tc.rec, tc.identity, tc.alias, tc.object, now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nProve(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// custodyKeys must name every field, or Save could not clear it.
func TestCustodyKeysCoverEveryField(t *testing.T) {
	var keys []string
	ty := reflect.TypeFor[v1alpha1.Custody]()
	for i := range ty.NumField() {
		keys = append(keys, strings.Split(ty.Field(i).Tag.Get("json"), ",")[0])
	}
	if diff := cmp.Diff(slices.Sorted(slices.Values(keys)), slices.Sorted(slices.Values(custodyKeys))); diff != "" {
		t.Errorf("custodyKeys: -fields of v1alpha1.Custody +custodyKeys:\n%s", diff)
	}
}

func TestSave(t *testing.T) {
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	stored := peer("a", "cold", 0)
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(stored).WithStatusSubresource(stored).Build()
	ctx := context.Background()
	cr := &v1alpha1.Tier{}
	if err := kube.Get(ctx, client.ObjectKeyFromObject(stored), cr); err != nil {
		t.Fatal(err)
	}
	cr.Status.SetConditions(xpv2.Available())
	was := Record(cr)
	if err := Save(ctx, kube, cr, was, Withdraw(was)); err != nil {
		t.Fatal(err)
	}
	got := &v1alpha1.Tier{}
	if err := kube.Get(ctx, client.ObjectKeyFromObject(stored), got); err != nil {
		t.Fatal(err)
	}
	want := v1alpha1.Custody{Identity: deployment, Object: object}
	if diff := cmp.Diff(&want, got.Status.Custody); diff != "" {
		t.Errorf("Save(...): stored record -want +got:\n%s", diff)
	}
	if got.ResourceVersion != cr.ResourceVersion || cr.Status.GetCondition(xpv2.TypeReady).Reason != xpv2.ReasonAvailable {
		t.Errorf("Save(...): want the in-memory status kept and resourceVersion %s, got %s", got.ResourceVersion, cr.ResourceVersion)
	}
	if err := kube.Status().Update(ctx, cr); err != nil {
		t.Errorf("status update after Save: %v", err)
	}
}

func TestCustodyPatchClears(t *testing.T) {
	b, err := custodyPatch(v1alpha1.Custody{Identity: deployment})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"identity": deployment, "object": nil, "accessProvenAt": nil, "eligible": nil, "acquired": nil}
	if diff := cmp.Diff(want, got["status"]["custody"]); diff != "" {
		t.Errorf("custodyPatch(...): -want +got:\n%s", diff)
	}
}
