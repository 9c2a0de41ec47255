package packages

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Crossplane's API versions of the objects the install test reads.
const (
	pkgV1    = "pkg.crossplane.io/v1"
	pkgBeta  = "pkg.crossplane.io/v1beta1"
	extV1    = "apiextensions.crossplane.io/v1"
	extV2    = "apiextensions.crossplane.io/v2"
	extAlpha = "apiextensions.crossplane.io/v1alpha1"
	crdV1    = "apiextensions.k8s.io/v1"
)

// Names the install manifests (examples/install) give the packages.
const (
	providerName      = "provider-rustfs"
	functionName      = testenv.TenantFunction
	configurationName = "configuration-rustfs-tenant"
	providerSA        = "provider-rustfs"
)

// The real Crossplane package manager installs the three packages that
// make xpkg built, pushed with crossplane xpkg push to an in-process OCI
// registry, from the install manifests make xpkg writes (examples/install
// for the packages built): the provider's CRDs
// become ManagedResourceDefinitions that stay Inactive until the
// activation policy activates them, its ProviderConfig kinds become CRDs,
// its revision is healthy as far as it can be without a kubelet, and the
// RBAC manager grants its ServiceAccount its roles; the Configuration,
// resolved against the provider and function by version, installs the
// Tenant XRDs and Compositions. Then the provider binary taken from the
// provider's image, running with only the RBAC of examples/install/rbac.yaml,
// and Crossplane's own composition engine, calling the function binary
// taken from the function's image over mTLS, bring the example Tenant and
// the example TenantClaim (legacy XTenant) to Ready.
func TestInstall(t *testing.T) {
	skip(t)
	c := startCluster(t)
	reg := startRegistry(t)
	reg.push(t, providerPkg, functionPkg, configurationPkg)
	ca := newPKI(t)
	clientCerts, _ := ca.issue(t, "crossplane", false)
	x := startCrossplane(t, c, clientCerts)
	c.create(reg.imageConfig())

	c.install("provider.yaml", "rbac.yaml")
	rev := c.expectProviderUnpacked(reg)
	c.expectInactiveUntilActivated()
	c.expectRevisionObjects(rev)
	c.standInForKubelet(rev)
	c.expectProviderRBAC(rev)

	fn := startFunction(t, c, ca)
	c.install("function.yaml", "configuration.yaml")
	c.serveFunction(fn)
	c.expectConfigurationInstalled()

	prov := startProvider(t, c)
	w := newWorld(t, c)
	w.applyTenant()
	w.expectTenantReady()
	w.expectRustFS()
	w.expectClaimReady()
	w.checkNoSecretLeaks(prov, x.core, x.rbac, fn.process)
	expectNoForbidden(t, prov)
	c.describe()
}

// install creates the objects of files of the install manifests make
// xpkg wrote (examples/install, pointed at the packages just built), as
// docs/install.md applies them, after checking that every package they
// install is one just built.
func (c *cluster) install(files ...string) {
	c.t.Helper()
	for _, f := range files {
		path := filepath.Join(env.dir, "..", "install", f)
		b, err := os.ReadFile(path)
		if err != nil {
			c.t.Fatal(err)
		}
		for _, u := range decode(c.t, b, path) {
			if ref, ok, _ := unstructured.NestedString(u.Object, "spec", "package"); ok && !isBuilt(ref) {
				c.t.Fatalf("%s installs %s, which is not a package just built (%s, %s)", path, ref, env.registry, env.version)
			}
			c.create(u)
		}
	}
}

// isBuilt reports whether ref references a package just built.
func isBuilt(ref string) bool {
	for _, p := range []pkg{providerPkg, functionPkg, configurationPkg} {
		if ref == p.source()+":"+env.version {
			return true
		}
	}
	return false
}

// condition returns the status, reason and message of the condition typ
// of u.
func condition(u *unstructured.Unstructured, typ string) (status, reason, message string) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			s, _ := m["status"].(string)
			r, _ := m["reason"].(string)
			msg, _ := m["message"].(string)
			return s, r, msg
		}
	}
	return "", "", ""
}

// expectTrue checks that each condition of u is True.
func expectTrue(g gomega.Gomega, u *unstructured.Unstructured, types ...string) {
	for _, typ := range types {
		s, r, m := condition(u, typ)
		g.Expect(s).To(gomega.Equal("True"), "%s %s condition %s: %s %s", u.GetKind(), u.GetName(), typ, r, redact(m))
	}
}

// only returns the single object of objs, failing g otherwise.
func only(g gomega.Gomega, what string, objs []unstructured.Unstructured) *unstructured.Unstructured {
	g.Expect(objs).To(gomega.HaveLen(1), "want exactly one %s", what)
	return &objs[0]
}
