package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	corev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis"
)

// startKube starts etcd and kube-apiserver with package/crds installed,
// writes a kubeconfig for them and returns a client.
func (d *demo) startKube(ctx context.Context) (client.Client, error) {
	assets, err := d.assets(ctx)
	if err != nil {
		return nil, err
	}
	s := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{corev1.AddToScheme, apis.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	d.kube = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join(d.root, "package", "crds")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
		Scheme:                s,
	}
	cfg, err := d.kube.Start()
	if err != nil {
		return nil, errors.Wrap(err, "cannot start kube-apiserver and etcd")
	}
	if err := os.WriteFile(d.kubeconfig(), d.kube.KubeConfig, 0o600); err != nil {
		return nil, errors.Wrap(err, "cannot write the kubeconfig")
	}
	fmt.Fprintf(d.out, "kube-apiserver %s with the provider's CRDs (kubeconfig: %s)\n", cfg.Host, d.kubeconfig())
	c, err := client.New(cfg, client.Options{Scheme: s})
	return c, errors.Wrap(err, "cannot create a client")
}

// assets returns the directory holding kube-apiserver and etcd:
// $KUBEBUILDER_ASSETS, or what `hack/tools.sh assets` builds and prints.
func (d *demo) assets(ctx context.Context) (string, error) {
	if a := os.Getenv("KUBEBUILDER_ASSETS"); a != "" {
		return a, nil
	}
	fmt.Fprintln(d.out, "KUBEBUILDER_ASSETS is not set: running hack/tools.sh assets (the first build takes a while)")
	cmd := exec.CommandContext(ctx, filepath.Join(d.root, "hack", "tools.sh"), "assets")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", errors.Wrap(err, "cannot build or find kube-apiserver and etcd")
	}
	return strings.TrimSpace(string(out)), nil
}
