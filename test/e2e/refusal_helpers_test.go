package e2e

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// refusalMessage is in every answer of a refusal the scenarios install.
const refusalMessage = "e2e: the API server refuses this record"

// probeLabel marks the dry-run ConfigMap that shows whether a refusal is
// in force.
const probeLabel = "e2e.rustfs.m.crossplane.io/refusal-probe"

// A refusal makes the real API server refuse some updates of the world's
// namespace with a ValidatingAdmissionPolicy, as a policy engine or an
// overloaded API server would.
type refusal struct {
	w    *world
	kube client.Client
	name string
}

// refuse makes the API server refuse every update of resource (for
// example "tiers/status") in the world's namespace for which the CEL
// expression when holds, and waits until the refusal is in force.
func (w *world) refuse(resource, when string) *refusal {
	w.t.Helper()
	s := kruntime.NewScheme()
	if err := admissionregistrationv1.AddToScheme(s); err != nil {
		w.t.Fatal(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		w.t.Fatal(err)
	}
	kube, err := client.New(env.Config, client.Options{Scheme: s})
	if err != nil {
		w.t.Fatal(err)
	}
	r := &refusal{w: w, kube: kube, name: "e2e-refuse-" + w.ns}
	w.create2(kube, r.policy(resource, when), r.binding())
	w.t.Cleanup(r.lift)
	w.eventually(func(g gomega.Gomega) {
		g.Expect(r.probe()).To(gomega.MatchError(gomega.ContainSubstring(refusalMessage)))
	})
	return r
}

func (w *world) create2(kube client.Client, objs ...client.Object) {
	w.t.Helper()
	for _, o := range objs {
		if err := kube.Create(w.ctx, o); err != nil {
			w.t.Fatalf("cannot create %T %s: %v", o, o.GetName(), err)
		}
	}
}

func (r *refusal) policy(resource, when string) *admissionregistrationv1.ValidatingAdmissionPolicy {
	fail := admissionregistrationv1.Fail
	rule := func(group, resource string, op admissionregistrationv1.OperationType) admissionregistrationv1.NamedRuleWithOperations {
		return admissionregistrationv1.NamedRuleWithOperations{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
			Operations: []admissionregistrationv1.OperationType{op},
			Rule:       admissionregistrationv1.Rule{APIGroups: []string{group}, APIVersions: []string{"*"}, Resources: []string{resource}},
		}}
	}
	expr := fmt.Sprintf(`object.kind == 'ConfigMap' ? !(has(object.metadata.labels) && '%s' in object.metadata.labels) : !(%s)`, probeLabel, when)
	return &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: r.name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: &fail,
			MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{
				rule(v1alpha1.Group, resource, admissionregistrationv1.Update), rule("", "configmaps", admissionregistrationv1.Create),
			}},
			Validations: []admissionregistrationv1.Validation{{Expression: expr, Message: refusalMessage}},
		},
	}
}

func (r *refusal) binding() *admissionregistrationv1.ValidatingAdmissionPolicyBinding {
	return &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: r.name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        r.name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
			MatchResources: &admissionregistrationv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{
				MatchLabels: map[string]string{corev1.LabelMetadataName: r.w.ns},
			}},
		},
	}
}

// probe creates, in dry run, a ConfigMap the refusal refuses while it is
// in force.
func (r *refusal) probe() error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: r.w.ns, GenerateName: "probe-", Labels: map[string]string{probeLabel: "true"}}}
	return r.kube.Create(r.w.ctx, cm, client.DryRunAll)
}

// lift removes the refusal and waits until it is no longer in force.
func (r *refusal) lift() {
	for _, o := range []client.Object{r.binding(), r.policy("", "false")} {
		if err := client.IgnoreNotFound(r.kube.Delete(r.w.ctx, o)); err != nil {
			r.w.t.Errorf("cannot delete %T %s: %v", o, r.name, err)
		}
	}
	r.w.eventually(func(g gomega.Gomega) { g.Expect(r.probe()).To(gomega.Succeed()) })
}

// waitRefused waits until the provider's record writes for o have been
// refused at least n times, as its events count them.
func (w *world) waitRefused(o client.Object, n int32) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		l := &corev1.EventList{}
		g.Expect(env.Client.List(w.ctx, l, client.InNamespace(w.ns))).To(gomega.Succeed())
		var seen int32
		for _, e := range l.Items {
			if e.InvolvedObject.Name == o.GetName() && strings.Contains(e.Message, refusalMessage) {
				seen += max(e.Count, 1)
			}
		}
		g.Expect(seen).To(gomega.BeNumerically(">=", n), "refused record writes of %s", o.GetName())
	})
}

// named is an object of namespace ns and name, for matching events.
func named(ns, name string) client.Object {
	o := &corev1.ConfigMap{}
	o.SetNamespace(ns)
	o.SetName(name)
	return o
}

// waitReads waits until RustFS received n more requests to route, the
// read every reconcile of a resource makes.
func (w *world) waitReads(route string, n int) {
	w.t.Helper()
	before := w.local.Count(route)
	w.eventually(func(g gomega.Gomega) {
		g.Expect(w.local.Count(route)).To(gomega.BeNumerically(">=", before+n), "reads of %s", route)
	})
}
