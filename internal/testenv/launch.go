package testenv

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Launch starts etcd and kube-apiserver for a program run from the
// repository at root (the demo, the benchmark) rather than for a test: the
// binaries come from Assets, so a first run builds them, and a kubeconfig
// for the administrator is written to <dir>/kubeconfig and named by
// Env.Kubeconfig. Progress of a first build goes to out.
func Launch(ctx context.Context, root, dir string, out io.Writer, extraCRDDirs ...string) (*Env, error) {
	assets, err := Assets(ctx, root, out)
	if err != nil {
		return nil, err
	}
	e, err := start(root, assets, extraCRDDirs)
	if err != nil {
		return nil, err
	}
	e.Kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(e.Kubeconfig, e.env.KubeConfig, 0o600); err != nil {
		_ = e.Stop()
		return nil, errors.Wrap(err, "cannot write the kubeconfig")
	}
	return e, nil
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
