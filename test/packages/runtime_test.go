package packages

import (
	"slices"
	"strings"
	"testing"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// expectProviderRBAC checks the ClusterRole Crossplane's RBAC manager
// renders for the provider revision and binds to the provider's
// ServiceAccount: the provider's own kinds, Secrets, ConfigMaps, Events and
// Leases in every namespace, and reading CRDs (safe-start); nothing else,
// so Namespaces, for example, need a binding of one's own (docs/install.md).
func (c *cluster) expectProviderRBAC(rev string) {
	c.t.Helper()
	name := "crossplane:provider:" + rev + ":system"
	c.wait(func(g gomega.Gomega) {
		cr := &rbacv1.ClusterRole{}
		g.Expect(c.kube.Get(c.ctx, client.ObjectKey{Name: name}, cr)).To(gomega.Succeed())
		for _, res := range resourcesOf(append(slices.Clone(managedKinds), configKinds...)...) {
			for _, verb := range []string{"get", "list", "watch", "create", "update", "patch"} {
				g.Expect(allows(cr.Rules, providerGroup, res, verb)).To(gomega.BeTrue(), "%s may %s %s", name, verb, res)
			}
		}
		for _, res := range []string{"secrets", "configmaps", "events"} {
			g.Expect(allows(cr.Rules, "", res, "list")).To(gomega.BeTrue(), "%s may list %s", name, res)
		}
		g.Expect(allows(cr.Rules, "coordination.k8s.io", "leases", "update")).To(gomega.BeTrue(), "%s may update leases", name)
		g.Expect(allows(cr.Rules, "apiextensions.k8s.io", "customresourcedefinitions", "watch")).To(gomega.BeTrue(), "%s may watch CRDs", name)
		g.Expect(allows(cr.Rules, "", "namespaces", "list")).To(gomega.BeFalse(), "%s does not grant namespaces", name)
		crb := &rbacv1.ClusterRoleBinding{}
		g.Expect(c.kube.Get(c.ctx, client.ObjectKey{Name: name}, crb)).To(gomega.Succeed())
		g.Expect(crb.RoleRef.Name).To(gomega.Equal(name))
		g.Expect(crb.Subjects).To(gomega.Equal([]rbacv1.Subject{{Kind: "ServiceAccount", Namespace: crossplaneNamespace, Name: providerSA}}))
	})
}

// allows reports whether rules grant verb on group/resource.
func allows(rules []rbacv1.PolicyRule, group, resource, verb string) bool {
	has := func(list []string, v string) bool {
		return slices.Contains(list, v) || slices.Contains(list, rbacv1.ResourceAll)
	}
	for _, r := range rules {
		if has(r.APIGroups, group) && has(r.Resources, resource) && has(r.Verbs, verb) {
			return true
		}
	}
	return false
}

// minimalSA is the ServiceAccount the install test runs the provider as:
// bound only to the ClusterRole of examples/install/rbac.yaml, so that the
// test shows that role is all the provider needs.
const minimalSA = "provider-rustfs-minimal"

// startProvider runs the provider binary of the provider's image out of
// cluster, as a pod of its Deployment would run, with the credentials of
// a ServiceAccount that has only the RBAC of examples/install/rbac.yaml.
func startProvider(t *testing.T, c *cluster) *process {
	t.Helper()
	c.create(&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: crossplaneNamespace, Name: minimalSA}},
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: minimalSA},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "provider-rustfs"},
			Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: crossplaneNamespace, Name: minimalSA}},
		})
	kc := c.serviceAccountKubeconfig(crossplaneNamespace, minimalSA)
	health := testenv.MustFreeAddr(t)
	p := start(t, "provider", []string{"KUBECONFIG=" + kc}, hostBinary(t, providerPkg),
		"--debug", "--no-leader-election", "--metrics-bind-address=0", "--health-probe-bind-address="+health)
	waitListening(t, p, health)
	return p
}

// expectNoForbidden fails the test if the API server refused the provider
// a request: its role lacks a permission.
func expectNoForbidden(t *testing.T, p *process) {
	t.Helper()
	for _, line := range strings.Split(p.log.String(), "\n") {
		if strings.Contains(line, "forbidden") {
			t.Errorf("the API server refused the provider a request; examples/install/rbac.yaml lacks a permission:\n%s", redact(line))
		}
	}
}

// A function is the function binary of the function's image, serving
// gRPC with mTLS on a loopback address.
type function struct {
	*process
	addr string
}

// functionSecret holds the function's server certificate, as the
// Deployment runtime would create it.
const functionSecret = "function-rustfs-tenant-tls-server"

// startFunction serves the function with a server certificate for
// 127.0.0.1 that trusts the CA of core's client certificate, and stores
// the certificate in a Secret, as core's runtime does for a Deployment.
func startFunction(t *testing.T, c *cluster, ca *pki) *function {
	t.Helper()
	dir, files := ca.issue(t, "function-rustfs-tenant", true)
	fn := &function{addr: testenv.MustFreeAddr(t)}
	fn.process = start(t, "function", nil, hostBinary(t, functionPkg),
		"--debug", "--tls-server-certs-dir="+dir, "--address="+fn.addr, "--metrics-address=")
	waitListening(t, fn.process, fn.addr)
	c.create(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: crossplaneNamespace, Name: functionSecret}, Data: files})
	return fn
}

// serveFunction does for the function revision what core's Deployment
// runtime does once the function's pod is ready, which needs a kubelet: it
// names the revision's TLS Secret and gRPC endpoint and reports its runtime
// healthy. It then waits until the Function is healthy.
func (c *cluster) serveFunction(fn *function) {
	c.t.Helper()
	c.wait(func(g gomega.Gomega) {
		rev := only(g, "FunctionRevision", c.list(g, pkgV1, "FunctionRevision", client.MatchingLabels{labelPackage: functionName}))
		_ = unstructured.SetNestedField(rev.Object, "dns:///"+fn.addr, "status", "endpoint")
		_ = unstructured.SetNestedField(rev.Object, functionSecret, "status", "tlsServerSecretName")
		setCondition(rev, "RuntimeHealthy", "True", "HealthyPackageRevision")
		g.Expect(c.kube.Status().Update(c.ctx, rev)).To(gomega.Succeed())
	})
	c.wait(func(g gomega.Gomega) {
		rev := only(g, "FunctionRevision", c.list(g, pkgV1, "FunctionRevision", client.MatchingLabels{labelPackage: functionName}))
		expectTrue(g, rev, "RevisionHealthy", "RuntimeHealthy")
		expectTrue(g, c.get(g, pkgV1, "Function", "", functionName), "Installed", "Healthy")
	})
}

// setCondition sets the condition typ of u.
func setCondition(u *unstructured.Unstructured, typ, status, reason string) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	c := map[string]any{"type": typ, "status": status, "reason": reason, "lastTransitionTime": metav1.Now().UTC().Format("2006-01-02T15:04:05Z")}
	for i, o := range conds {
		if m, ok := o.(map[string]any); ok && m["type"] == typ {
			conds[i] = c
			_ = unstructured.SetNestedSlice(u.Object, conds, "status", "conditions")
			return
		}
	}
	_ = unstructured.SetNestedSlice(u.Object, append(conds, c), "status", "conditions")
}
