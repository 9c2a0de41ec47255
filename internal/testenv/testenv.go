// Package testenv starts a real kube-apiserver and etcd with the
// provider's CRDs installed (through envtest), for integration tests and
// for the demo and the benchmark, and the processes and ports they run
// beside it. The binaries come from KUBEBUILDER_ASSETS, which `make test`
// points at the cache that hack/tools.sh fills (kube-apiserver v1.35.4
// built from the Go module proxy, etcd from Debian).
package testenv

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis"
)

// An Env is a running API server with the provider's CRDs installed.
type Env struct {
	// Config reaches the API server as an administrator.
	Config *rest.Config

	// Client is an uncached client with the provider's types registered.
	Client client.Client

	// Scheme has the provider's, core and apiextensions types.
	Scheme *kruntime.Scheme

	// Kubeconfig is the path of a kubeconfig for Config, written by
	// Launch; empty for an Env of Start.
	Kubeconfig string

	env *envtest.Environment
}

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Skip skips an integration test in short mode (`make unit`). Outside
// short mode a missing API server is an error, never a silent skip.
func Skip(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("integration test: needs kube-apiserver and etcd (run make test)")
	}
}

// Start starts etcd and kube-apiserver from KUBEBUILDER_ASSETS and
// installs the CRDs found in package/provider/crds plus any extra
// directories.
func Start(extraCRDDirs ...string) (*Env, error) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		return nil, errors.New("KUBEBUILDER_ASSETS is not set: run `make test`, or export KUBEBUILDER_ASSETS=$(hack/tools.sh assets)")
	}
	return start(Root(), assets, extraCRDDirs)
}

// start starts etcd and kube-apiserver from assets and installs the CRDs
// of <root>/package/provider/crds and of extraCRDDirs.
func start(root, assets string, extraCRDDirs []string) (*Env, error) {
	s := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{corev1.AddToScheme, authorizationv1.AddToScheme, rbacv1.AddToScheme, apiextensionsv1.AddToScheme, apis.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     append([]string{filepath.Join(root, "package", "provider", "crds")}, extraCRDDirs...),
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
		Scheme:                s,
	}
	cfg, err := env.Start()
	if err != nil {
		// Start leaves etcd and kube-apiserver running when a later step,
		// such as installing the CRDs, fails.
		_ = env.Stop()
		return nil, errors.Wrap(err, "cannot start kube-apiserver and etcd")
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		_ = env.Stop()
		return nil, errors.Wrap(err, "cannot create client")
	}
	return &Env{Config: cfg, Client: c, Scheme: s, env: env}, nil
}

// Stop stops the API server and etcd.
func (e *Env) Stop() error {
	return errors.Wrap(e.env.Stop(), "cannot stop kube-apiserver and etcd")
}

// Main runs a package's tests against one shared Env, stored in *env. In
// short mode it runs them without one; they skip themselves with Skip.
func Main(m *testing.M, env **Env) int {
	flag.Parse()
	if !testing.Short() {
		e, err := Start()
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
		*env = e
		defer func() { _ = e.Stop() }()
	}
	return m.Run()
}
