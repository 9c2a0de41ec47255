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
	for name, tc := range proveCases() {
		t.Run(name, func(t *testing.T) {
			got := Prove(tc.rec, tc.proof, t0.Add(time.Hour))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nProve(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

type proveCase struct {
	reason string
	rec    v1alpha1.Custody
	proof  Proof
	want   v1alpha1.Custody
}

func proveCases() map[string]proveCase {
	proven := &metav1.Time{Time: t0}
	fresh := &metav1.Time{Time: t0.Add(time.Hour)}
	cluster := v1alpha1.ClusterProviderConfigKind
	held := v1alpha1.Custody{Identity: deployment, Object: object, Config: cluster, AccessProvenAt: proven, Eligible: true, Acquired: v1alpha1.AcquiredCreated}
	proof := Proof{Identity: deployment, Config: cluster, Object: object}
	namespaced := v1alpha1.Custody{Identity: deployment, Object: object, Config: v1alpha1.ProviderConfigKind, Endpoint: "http://a:9000",
		AccessProvenAt: proven, Eligible: true, Acquired: v1alpha1.AcquiredCreated}
	endpoint := "endpoint:http://rustfs:9000"
	return map[string]proveCase{
		"First": {reason: "The first read proves access now.", proof: proof,
			want: v1alpha1.Custody{Identity: deployment, Object: object, Config: cluster, AccessProvenAt: fresh}},
		"Again": {reason: "Later reads keep the record, its time and what it acquired.", rec: held, proof: proof, want: held},
		"OtherRustFS": {reason: "Another deployment starts afresh: acquisitions hold for one deployment.", rec: held,
			proof: Proof{Identity: otherID, Config: cluster, Object: object},
			want:  v1alpha1.Custody{Identity: otherID, Object: object, Config: cluster, AccessProvenAt: fresh}},
		"OtherObject": {reason: "Another object starts afresh.", rec: held, proof: Proof{Identity: deployment, Config: cluster, Object: "WARM"},
			want: v1alpha1.Custody{Identity: deployment, Object: "WARM", Config: cluster, AccessProvenAt: fresh}},
		"OtherConfigKind": {reason: "What was acquired through a namespace's own ProviderConfig never counts through the platform's.",
			rec:   v1alpha1.Custody{Identity: deployment, Object: object, Config: v1alpha1.ProviderConfigKind, AccessProvenAt: proven, Acquired: v1alpha1.AcquiredCreated},
			proof: proof, want: v1alpha1.Custody{Identity: deployment, Object: object, Config: cluster, AccessProvenAt: fresh}},
		"FromEndpointToDeployment": {reason: "A record made under the endpoint form of the same RustFS carries over to its deployment ID.",
			rec:   v1alpha1.Custody{Identity: endpoint, Object: object, Config: cluster, AccessProvenAt: proven, Acquired: v1alpha1.AcquiredCreated},
			proof: Proof{Identity: deployment, Alias: endpoint, Config: cluster, Object: object},
			want:  v1alpha1.Custody{Identity: deployment, Object: object, Config: cluster, AccessProvenAt: proven, Acquired: v1alpha1.AcquiredCreated}},
		"PlatformRespelled": {reason: "The platform may respell its endpoint: a ClusterProviderConfig's record holds for the deployment.",
			rec: held, proof: Proof{Identity: deployment, Config: cluster, Object: object, Endpoint: "http://b:9000"},
			want: v1alpha1.Custody{Identity: deployment, Object: object, Config: cluster, Endpoint: "http://b:9000", AccessProvenAt: proven, Eligible: true, Acquired: v1alpha1.AcquiredCreated}},
		"NamespacedElsewhere": {reason: "A namespace's record holds at its endpoint only: another one starts afresh.",
			rec: namespaced, proof: Proof{Identity: deployment, Config: v1alpha1.ProviderConfigKind, Object: object, Endpoint: "http://b:9000"},
			want: v1alpha1.Custody{Identity: deployment, Object: object, Config: v1alpha1.ProviderConfigKind, Endpoint: "http://b:9000", AccessProvenAt: fresh}},
		"Withdrawn": {reason: "A record whose access was withdrawn is proven again.", rec: Withdraw(held), proof: proof,
			want: v1alpha1.Custody{Identity: deployment, Object: object, Config: cluster, AccessProvenAt: fresh, Acquired: v1alpha1.AcquiredCreated}},
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
	want := v1alpha1.Custody{Identity: deployment, Object: object, Config: v1alpha1.ClusterProviderConfigKind, Endpoint: "http://rustfs:9000"}
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
	want := map[string]any{"identity": deployment, "object": nil, "config": nil, "endpoint": nil, "accessProvenAt": nil, "eligible": nil, "acquired": nil, "record": nil}
	if diff := cmp.Diff(want, got["status"]["custody"]); diff != "" {
		t.Errorf("custodyPatch(...): -want +got:\n%s", diff)
	}
}
