package packages

import (
	"os"
	"path/filepath"
	"strings"
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
	functionName      = "crossplane-contrib-function-rustfs-tenant"
	configurationName = "configuration-rustfs-tenant"
	providerSA        = "provider-rustfs"
)

// The real Crossplane package manager installs the three packages that
// make xpkg built, pushed with crossplane xpkg push to an in-process OCI
// registry, from the manifests of examples/install: the provider's CRDs
// become ManagedResourceDefinitions that stay Inactive until the
// activation policy activates them, its ProviderConfig kinds become CRDs,
// its revision is healthy as far as it can be without a kubelet, and the
// RBAC manager grants its ServiceAccount its roles; the Configuration,
// resolved against the provider and function by version, installs the
// Tenant XRDs and Compositions. Then the provider binary taken from the
// provider's image, running with only the RBAC of examples/install/rbac.yaml,
// and Crossplane's own composition engine, calling the function binary
// taken from the function's image over mTLS, bring the example Tenant to
// Ready.
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
	w.checkNoSecretLeaks(prov, x.core, x.rbac, fn.process)
	expectNoForbidden(t, prov)
	c.describe()
}

// install creates the objects of files of examples/install, their package
// references pointed at the packages just built.
func (c *cluster) install(files ...string) {
	c.t.Helper()
	for _, f := range files {
		path := filepath.Join(testenv.Root(), "examples", "install", f)
		b, err := os.ReadFile(path) //nolint:gosec // A file of the repository.
		if err != nil {
			c.t.Fatal(err)
		}
		for _, u := range decode(c.t, b, path) {
			if ref, ok, _ := unstructured.NestedString(u.Object, "spec", "package"); ok {
				_ = unstructured.SetNestedField(u.Object, built(c.t, ref), "spec", "package")
			}
			c.create(u)
		}
	}
}

// built is the reference ref of an example names, for the package of the
// same name just built: its registry and version.
func built(t *testing.T, ref string) string {
	t.Helper()
	repo, _, _ := strings.Cut(ref[strings.LastIndex(ref, "/")+1:], ":")
	for _, p := range []pkg{providerPkg, functionPkg, configurationPkg} {
		if p.name == repo {
			return p.source() + ":" + env.version
		}
	}
	t.Fatalf("examples/install names %s, which this repository does not build", ref)
	return ""
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
