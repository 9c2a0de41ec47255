package custody

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// namespaceLabels is a NamespaceReader over fixed labels.
type namespaceLabels struct {
	labels map[string]map[string]string
	err    error
}

func (n namespaceLabels) Labels(_ context.Context, name string) (map[string]string, error) {
	return n.labels[name], n.err
}

// Exists reports whether name has an entry in labels.
func (n namespaceLabels) Exists(_ context.Context, name string) (bool, error) {
	_, ok := n.labels[name]
	return ok, n.err
}

// A gateCase is a resource in namespace ns whose ProviderConfig is target
// and which names names, and what Open must do.
type gateCase struct {
	reason     string
	ns         string
	target     connection.Target
	namespaces NamespaceReader
	names      Names
	want       xpv2.ConditionReason
	wantErr    bool
	wantCause  bool // the refusal unwraps to the error that caused it
}

func gateCases() map[string]gateCase {
	prefix := v1alpha1.TenancySettings{NameScope: v1alpha1.NameScopeNamespacePrefix}
	teamA := &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	return map[string]gateCase{
		"Open": {reason: "Without a selector or a slice the gate opens.", ns: "team-b", names: Names{Tiers: []string{"COLD"}}},
		"Selected": {reason: "A selected namespace passes.", ns: "team-a",
			target: connection.Target{NamespaceSelector: teamA}},
		"NotSelected": {reason: "Another namespace is refused before anything is read.", ns: "team-b",
			target: connection.Target{NamespaceSelector: teamA}, want: v1alpha1.ReasonProviderConfigNotAllowed},
		"NoNamespaceAccess": {reason: "Without access to Namespaces a selector refuses every namespace.", ns: "team-a",
			target: connection.Target{NamespaceSelector: teamA}, namespaces: Namespaces{}, want: v1alpha1.ReasonProviderConfigNotAllowed,
			wantCause: true},
		"InvalidSelector": {reason: "A selector that does not parse refuses, and the refusal keeps the parse error.", ns: "team-a",
			target: connection.Target{NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "team", Operator: "Near"}}}},
			want:   v1alpha1.ReasonProviderConfigNotAllowed, wantCause: true},
		"CacheError": {reason: "A failure to read the Namespace is retried, not a refusal.", ns: "team-a",
			target: connection.Target{NamespaceSelector: teamA}, namespaces: namespaceLabels{err: errors.New("cache not started")}, wantErr: true},
		"OutsideSlice": {reason: "A name outside the slice is refused.", ns: "team-b",
			target: connection.Target{Tenancy: prefix}, names: Names{Buckets: []string{"team-a-data"}}, want: v1alpha1.ReasonNameOutsideNamespace},
		"LongerPrefix": {reason: "A name a namespace with a longer prefix owns is refused before anything is read.", ns: "team",
			target: connection.Target{Tenancy: prefix}, names: Names{Buckets: []string{"team-a-data"}}, want: v1alpha1.ReasonNameOutsideNamespace},
		"LongerPrefixUnreadable": {reason: "A failure to read the Namespaces is retried, not a refusal.", ns: "team",
			target: connection.Target{Tenancy: prefix}, namespaces: namespaceLabels{err: errors.New("cache not started")},
			names: Names{Buckets: []string{"team-a-data"}}, wantErr: true},
		"NamespaceFirst": {reason: "The namespace policy is decided before the names.", ns: "team-b",
			target: connection.Target{NamespaceSelector: teamA, Tenancy: prefix}, names: Names{Buckets: []string{"team-a-data"}},
			want: v1alpha1.ReasonProviderConfigNotAllowed},
	}
}

func TestGateOpen(t *testing.T) {
	labels := namespaceLabels{labels: map[string]map[string]string{"team-a": {"team": "a"}, "team-b": {"team": "b"}}}
	for name, tc := range gateCases() {
		t.Run(name, func(t *testing.T) {
			cr := peer(tc.ns, "cold", 0)
			kube := fakeKube(t, cr)
			connects := 0
			g := &Gate{
				Kube:   kube,
				Target: func(context.Context, resource.ModernManaged) (*connection.Target, error) { return &tc.target, nil },
				Connect: func(context.Context, resource.ModernManaged, *connection.Target) (*connection.Connection, error) {
					connects++
					return &connection.Connection{}, nil
				},
				Namespaces: labels,
			}
			if tc.namespaces != nil {
				g.Namespaces = tc.namespaces
			}
			_, err := g.Open(context.Background(), cr, tc.names)
			var r *Refusal
			refused := errors.As(err, &r)
			switch {
			case tc.wantErr:
				if err == nil || refused || connects != 0 {
					t.Fatalf("%s\nOpen(...): want a plain error and no connect, got %v (%d connects)", tc.reason, err, connects)
				}
			case tc.want == "":
				if err != nil || connects != 1 {
					t.Fatalf("%s\nOpen(...): want one connect, got %v (%d connects)", tc.reason, err, connects)
				}
			default:
				expectRefused(t, tc.reason, kube, cr, r, tc.want, connects)
				if (errors.Unwrap(r) != nil) != tc.wantCause {
					t.Errorf("%s\nthe refusal's cause: got %v, want one: %t", tc.reason, errors.Unwrap(r), tc.wantCause)
				}
			}
		})
	}
}

// expectRefused checks a refusal: reported as Ready=False, no connect (so
// no Secret read), and the stored record no longer eligible.
func expectRefused(t *testing.T, reason string, kube client.Client, cr *v1alpha1.Tier, r *Refusal, want xpv2.ConditionReason, connects int) {
	t.Helper()
	if r == nil || r.Reason != want || connects != 0 {
		t.Fatalf("%s\nOpen(...): want refusal %s and no connect, got %v (%d connects)", reason, want, r, connects)
	}
	if c := cr.GetCondition(xpv2.TypeReady); c.Reason != want || c.Message != r.Message {
		t.Errorf("%s\nReady: want reason %s, got %s: %s", reason, want, c.Reason, c.Message)
	}
	stored := &v1alpha1.Tier{}
	if err := kube.Get(context.Background(), client.ObjectKeyFromObject(cr), stored); err != nil {
		t.Fatal(err)
	}
	wantRec := v1alpha1.Custody{Identity: deployment, Object: object, Config: v1alpha1.ClusterProviderConfigKind,
		Endpoint: "http://rustfs:9000", AccessProvenAt: &metav1.Time{Time: t0}}
	if diff := cmp.Diff(&wantRec, stored.Status.Custody); diff != "" {
		t.Errorf("%s\nstored custody: -want +got:\n%s", reason, diff)
	}
}

func fakeKube(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(objs...).Build()
}

func TestCustodyChanged(t *testing.T) {
	base := peer("a", "x", 0)
	cases := map[string]struct {
		reason string
		newer  *v1alpha1.Tier
		want   bool
	}{
		"Unchanged":     {reason: "A status update that leaves the record alone is not a custody change.", newer: base.DeepCopy()},
		"Withdrawn":     {reason: "Losing proven access hands the object over.", newer: peer("a", "x", 0, unproven), want: true},
		"Refused":       {reason: "Becoming ineligible hands the object over.", newer: peer("a", "x", 0, ineligible), want: true},
		"DeleteStarted": {reason: "The start of deletion hands the object over.", newer: peer("a", "x", 0, deleting), want: true},
		"NewIdentity":   {reason: "Another identity changes which peers compete.", newer: peer("a", "x", 0, onIdentity(otherID)), want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := CustodyChanged().Update(eventUpdate(base, tc.newer)); got != tc.want {
				t.Errorf("%s\nUpdate(...): want %t, got %t", tc.reason, tc.want, got)
			}
		})
	}
}

func eventUpdate(o, n client.Object) event.UpdateEvent {
	return event.UpdateEvent{ObjectOld: o, ObjectNew: n}
}
