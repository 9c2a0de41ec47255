package testenv

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// The Crossplane core that the install test and the demo run out of
// cluster (hack/tools.sh crossplane-core); its module holds the CRDs of
// Crossplane's own APIs.
const (
	CoreModule  = "github.com/crossplane/crossplane/v2"
	CoreVersion = "v2.3.4"
)

// CrossplaneNamespace is where core unpacks and runs packages.
const CrossplaneNamespace = "crossplane-system"

// TenantFunction is the name the Tenant Compositions call the function by:
// the name Crossplane gives the Function it installs as a dependency of
// the Configuration.
const TenantFunction = "crossplane-contrib-function-rustfs-tenant"

// CoreCRDs is the directory of Crossplane's CRDs in the core module, which
// hack/tools.sh built the core binary from (so it is in the module cache).
func CoreCRDs(ctx context.Context, root string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", CoreModule+"@"+CoreVersion)
	cmd.Dir = filepath.Join(root, "hack", "tools", "crossplane-core")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		return "", errors.Wrapf(err, "cannot find the module %s@%s", CoreModule, CoreVersion)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return "", errors.Errorf("go mod download gave no directory for %s@%s", CoreModule, CoreVersion)
	}
	return filepath.Join(mod.Dir, "cluster", "crds"), nil
}

// CoreEnv is the environment `crossplane core start` needs out of cluster:
// the API server (an administrator's kubeconfig), its namespace, no
// webhooks (they need serving certificates), the client certificate it
// calls functions with, and its metrics and health ports. The namespace
// needs the ServiceAccount crossplane.
func CoreEnv(kubeconfig, clientCerts, metricsPort, healthPort string) []string {
	return []string{
		"KUBECONFIG=" + kubeconfig,
		"POD_NAMESPACE=" + CrossplaneNamespace,
		"ENABLE_WEBHOOKS=false",
		"TLS_CLIENT_CERTS_DIR=" + clientCerts,
		"METRICS_PORT=" + metricsPort,
		"HEALTH_PROBE_PORT=" + healthPort,
	}
}

// CoreStartArgs are the arguments of `crossplane core start` out of
// cluster: functions run externally, served by the caller on loopback,
// since no kubelet runs their pods.
func CoreStartArgs(cacheDir string) []string {
	return []string{"core", "start", "--debug", "--cache-dir=" + cacheDir, "--package-runtime=Provider=Deployment;Function=External"}
}

// ServeRevision does for a FunctionRevision what core's Deployment runtime
// does once the function's pod is ready, which needs a kubelet: it names
// the gRPC endpoint addr and the TLS Secret (if any) in the status and
// reports the runtime healthy. The caller updates the status.
func ServeRevision(rev *unstructured.Unstructured, addr, tlsSecret string) {
	_ = unstructured.SetNestedField(rev.Object, "dns:///"+addr, "status", "endpoint")
	if tlsSecret != "" {
		_ = unstructured.SetNestedField(rev.Object, tlsSecret, "status", "tlsServerSecretName")
	}
	SetCondition(rev, "RuntimeHealthy", "True", "HealthyPackageRevision")
}

// SetCondition sets the condition typ of u.
func SetCondition(u *unstructured.Unstructured, typ, status, reason string) {
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
