package cluster

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	corev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis"
)

// A ControlPlane is etcd and kube-apiserver with package/provider/crds installed.
type ControlPlane struct {
	env *envtest.Environment

	// Config reaches the API server as an administrator.
	Config *rest.Config
	// Client is a client of Config, with the provider's API types.
	Client client.Client
	// Kubeconfig is the path of a kubeconfig for Config.
	Kubeconfig string
}

// Scheme returns a scheme with the core and the provider's API types.
func Scheme() (*kruntime.Scheme, error) {
	s := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{corev1.AddToScheme, apis.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Start starts etcd and kube-apiserver from the repository at root with
// <root>/package/provider/crds installed, and writes a kubeconfig into dir. Progress
// of a first build of the binaries goes to out.
func Start(ctx context.Context, root, dir string, out io.Writer) (*ControlPlane, error) {
	assets, err := Assets(ctx, root, out)
	if err != nil {
		return nil, err
	}
	s, err := Scheme()
	if err != nil {
		return nil, err
	}
	cp := &ControlPlane{Kubeconfig: filepath.Join(dir, "kubeconfig"), env: &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join(root, "package", "provider", "crds")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
		Scheme:                s,
	}}
	if cp.Config, err = cp.env.Start(); err != nil {
		return nil, errors.Wrap(err, "cannot start kube-apiserver and etcd")
	}
	if err := os.WriteFile(cp.Kubeconfig, cp.env.KubeConfig, 0o600); err != nil {
		_ = cp.Stop()
		return nil, errors.Wrap(err, "cannot write the kubeconfig")
	}
	if cp.Client, err = client.New(cp.Config, client.Options{Scheme: s}); err != nil {
		_ = cp.Stop()
		return nil, errors.Wrap(err, "cannot create a client")
	}
	return cp, nil
}

// Stop stops kube-apiserver and etcd.
func (c *ControlPlane) Stop() error {
	return errors.Wrap(c.env.Stop(), "cannot stop kube-apiserver and etcd")
}

// Assets returns the directory holding kube-apiserver and etcd:
// $KUBEBUILDER_ASSETS, or what `hack/tools.sh assets` builds and prints.
func Assets(ctx context.Context, root string, out io.Writer) (string, error) {
	if a := os.Getenv("KUBEBUILDER_ASSETS"); a != "" {
		return a, nil
	}
	fmt.Fprintln(out, "KUBEBUILDER_ASSETS is not set: running hack/tools.sh assets (the first build takes a while)")
	cmd := exec.CommandContext(ctx, filepath.Join(root, "hack", "tools.sh"), "assets")
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", errors.Wrap(err, "cannot build or find kube-apiserver and etcd")
	}
	return strings.TrimSpace(string(b)), nil
}
