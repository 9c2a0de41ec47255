package packages

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// mirror is the repository prefix under which the install test's registry
// holds the packages: Crossplane pulls <registry>/<name> from
// <addr>/mirror/<name> through an ImageConfig.
const mirror = "mirror"

// A registry is go-containerregistry's in-memory OCI registry, served by
// xpkgtool on a loopback address (plain HTTP, as go-containerregistry and
// Crossplane use for 127.0.0.1).
type registry struct {
	addr string
}

func startRegistry(t *testing.T) *registry {
	t.Helper()
	_, addr := startReadingAddress(t, "registry", env.tool, "registry")
	return &registry{addr: addr}
}

// push pushes the built files of each package with `crossplane xpkg push`,
// as make publish does, under the version just built.
func (r *registry) push(t *testing.T, pkgs ...pkg) {
	t.Helper()
	for _, p := range pkgs {
		run(t, env.cli, "xpkg", "push", "-f", strings.Join(p.files(t, env.dir), ","), r.ref(p))
	}
}

// ref is where the registry holds p.
func (r *registry) ref(p pkg) string {
	return r.addr + "/" + mirror + "/" + p.name + ":" + env.version
}

// imageConfig makes Crossplane pull every package published under the
// registry the packages were built for from the test's registry instead.
// The packages keep their identity (spec.package, the Lock's sources and
// the Configuration's dependencies name the real registry).
func (r *registry) imageConfig() *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "pkg.crossplane.io/v1beta1",
		"kind":       "ImageConfig",
		"metadata":   map[string]any{"name": "install-test-registry"},
		"spec": map[string]any{
			"matchImages":  []any{map[string]any{"type": "Prefix", "prefix": env.registry + "/"}},
			"rewriteImage": map[string]any{"prefix": r.addr + "/" + mirror + "/"},
		},
	}}
	return u
}

// A crossplane is Crossplane core and its RBAC manager, run out of cluster
// against the cluster as an administrator, as the Helm chart runs them in
// it: packages unpack in crossplane-system, providers run as Deployments,
// and functions run externally (the test serves the function itself,
// since no kubelet runs the function's pod).
type crossplane struct {
	core, rbac *process
	health     string
}

func startCrossplane(t *testing.T, c *cluster, clientCerts string) *crossplane {
	t.Helper()
	x := &crossplane{health: testenv.MustFreeAddr(t)}
	vars := testenv.CoreEnv(c.kubeconfig, clientCerts, port(testenv.MustFreeAddr(t)), port(x.health))
	x.core = start(t, "crossplane core", vars, env.core, testenv.CoreStartArgs(t.TempDir())...)
	// The RBAC manager's metrics listen on :8080, which has no flag: two
	// install tests on one machine take turns.
	holdPort8080(t)
	x.rbac = start(t, "crossplane rbac manager", vars, env.core, "rbac", "start", "--debug")
	c.wait(func(g gomega.Gomega) {
		x.core.running(t)
		resp, err := http.Get("http://" + x.health + "/readyz") // A probe of a local process.
		g.Expect(err).NotTo(gomega.HaveOccurred())
		_ = resp.Body.Close()
		g.Expect(resp.StatusCode).To(gomega.Equal(http.StatusOK))
	})
	return x
}

// holdPort8080 waits until no other install test on this machine runs an
// RBAC manager, whose metrics server binds :8080 (a second one exits with
// "address already in use" and never renders the provider's ClusterRoles),
// and holds the turn until the test's cleanup, after the RBAC manager
// stops.
func holdPort8080(t *testing.T) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "provider-rustfs-install-test-8080.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatalf("cannot wait for port 8080: %v", err)
	}
	t.Cleanup(func() { _ = f.Close() }) // closing releases the lock
}
