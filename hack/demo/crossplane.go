package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// startTimeout bounds how long core and the function may take to start.
const startTimeout = 90 * time.Second

// findCore finds the Crossplane core binary ($CROSSPLANE_CORE, or what
// hack/tools.sh crossplane-core builds and caches) and Crossplane's CRDs
// in its module. When either is missing, the Tenant is skipped and
// d.skipTenant says why, in one line.
func (d *demo) findCore(ctx context.Context) {
	if d.noTenant {
		d.skipTenant = "-tenant=false"
		return
	}
	if os.Getenv("RUSTFS_ENDPOINT") != "" {
		d.skipTenant = "the Tenant declares tier COLD and bucket app-data, as the managed examples do, and the demo has one real RustFS"
		return
	}
	d.core = os.Getenv("CROSSPLANE_CORE")
	if d.core == "" {
		fmt.Fprintln(d.out, "CROSSPLANE_CORE is not set: running hack/tools.sh crossplane-core (the first build takes a few minutes)")
		cmd := exec.CommandContext(ctx, filepath.Join(d.root, "hack", "tools.sh"), "crossplane-core")
		cmd.Stderr = os.Stderr
		b, err := cmd.Output()
		if err != nil {
			d.skipTenant = fmt.Sprintf("hack/tools.sh crossplane-core failed (%v), so Crossplane core cannot run here", err)
			return
		}
		d.core = strings.TrimSpace(string(b))
	}
	if _, err := os.Stat(d.core); err != nil {
		d.skipTenant = fmt.Sprintf("no Crossplane core binary at %s (hack/tools.sh crossplane-core failed? see its output above)", d.core)
		return
	}
	if _, err := os.Stat(d.bin("function")); err != nil {
		d.skipTenant = fmt.Sprintf("%s is missing: run `make demo`, which builds it", d.bin("function"))
		return
	}
	crds, err := testenv.CoreCRDs(ctx, d.root)
	if err != nil {
		d.skipTenant = fmt.Sprintf("Crossplane's CRDs are not in the module cache: %v", err)
		return
	}
	d.coreCRDs = crds
}

// startCrossplane runs Crossplane core out of cluster against the demo's
// API server, as an administrator, with its client certificate from pki,
// and waits until it is ready.
func (d *demo) startCrossplane(ctx context.Context, c client.Client, pki *testenv.PKI) error {
	if err := create(ctx, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: testenv.CrossplaneNamespace}},
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: testenv.CrossplaneNamespace, Name: "crossplane"}}); err != nil {
		return err
	}
	certs := filepath.Join(d.dir, "pki", "crossplane")
	if _, err := pki.Issue(certs, "crossplane", false); err != nil {
		return err
	}
	cache := filepath.Join(d.dir, "xpkg-cache")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return err
	}
	health, err := testenv.FreeAddr()
	if err != nil {
		return err
	}
	metrics, err := testenv.FreeAddr()
	if err != nil {
		return err
	}
	p, err := d.spawn("crossplane-core", testenv.CoreEnv(d.kubeconfig(), certs, port(metrics), port(health)), d.core, testenv.CoreStartArgs(cache)...)
	if err != nil {
		return err
	}
	if err := waitReady(ctx, "http://"+health+"/readyz", p); err != nil {
		return errors.Wrap(err, "Crossplane core did not become ready (see crossplane-core.log)")
	}
	fmt.Fprintf(d.out, "Crossplane core %s ready at http://%s/readyz (log: %s)\n", testenv.CoreVersion, health, filepath.Join(d.dir, "crossplane-core.log"))
	return nil
}

// waitReady polls url until it answers 200, p exits or startTimeout passes.
func waitReady(ctx context.Context, url string, p *testenv.Child) error {
	deadline := time.Now().Add(startTimeout)
	for {
		resp, err := http.Get(url) // A probe of a local process.
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if aerr := p.Alive(); aerr != nil {
			return aerr
		}
		if time.Now().After(deadline) {
			return errors.Errorf("%s did not answer 200 within %s", url, startTimeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// serveFunction serves bin/function over mTLS on loopback and registers
// it with core as the Tenant Compositions' function. Core calls a function
// at the endpoint of its active FunctionRevision; with no registry to pull
// the package from and no kubelet to run it, the demo creates the Function
// and its revision paused (so the package manager leaves them alone) and
// sets the endpoint itself.
func (d *demo) serveFunction(ctx context.Context, c client.Client, pki *testenv.PKI) error {
	certs := filepath.Join(d.dir, "pki", "function")
	if _, err := pki.Issue(certs, "function-rustfs-tenant", true); err != nil {
		return err
	}
	addr, err := testenv.FreeAddr()
	if err != nil {
		return err
	}
	p, err := d.spawn("function", nil, d.bin("function"), "--debug", "--tls-server-certs-dir="+certs, "--address="+addr, "--metrics-address=")
	if err != nil {
		return err
	}
	if err := testenv.WaitListening(ctx, addr, startTimeout, p.Alive); err != nil {
		return err
	}
	fn, rev := functionObjects(d.functionPackage())
	if err := create(ctx, c, fn, rev); err != nil {
		return err
	}
	testenv.ServeRevision(rev, addr, "")
	// The package manager records this for a function whose package
	// declares no capabilities (package/function/crossplane.yaml);
	// Compositions may only call a function that has it.
	_ = unstructured.SetNestedStringSlice(rev.Object, []string{"composition"}, "status", "capabilities")
	if err := c.Status().Update(ctx, rev); err != nil {
		return errors.Wrap(err, "cannot set the FunctionRevision's endpoint")
	}
	fmt.Fprintf(d.out, "function-rustfs-tenant serving on %s (log: %s)\n", addr, filepath.Join(d.dir, "function.log"))
	return nil
}

// functionPackage is the package examples/tenant/functions.yaml names.
func (d *demo) functionPackage() string {
	docs, _ := decodeFile(filepath.Join(d.examples, "tenant", "functions.yaml"))
	for _, u := range docs {
		if p, _, _ := unstructured.NestedString(u.Object, "spec", "package"); p != "" {
			return p
		}
	}
	return "xpkg.crossplane.io/crossplane-contrib/function-rustfs-tenant:v0.1.0"
}

// functionObjects are the paused Function the Compositions call and its
// active revision.
func functionObjects(pkg string) (fn, rev *unstructured.Unstructured) {
	paused := map[string]any{"crossplane.io/paused": "true"}
	fn = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "pkg.crossplane.io/v1", "kind": "Function",
		"metadata": map[string]any{"name": testenv.TenantFunction, "annotations": paused},
		"spec":     map[string]any{"package": pkg},
	}}
	rev = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "pkg.crossplane.io/v1", "kind": "FunctionRevision",
		"metadata": map[string]any{"name": testenv.TenantFunction + "-demo", "annotations": paused,
			"labels": map[string]any{"pkg.crossplane.io/package": testenv.TenantFunction}},
		"spec": map[string]any{"desiredState": "Active", "image": pkg, "revision": int64(1)},
	}}
	return fn, rev
}

// create creates objs; one that exists already is left as it is.
func create(ctx context.Context, c client.Client, objs ...client.Object) error {
	for _, o := range objs {
		if err := c.Create(ctx, o); err != nil && !apierrors.IsAlreadyExists(err) {
			return errors.Wrapf(err, "cannot create %s %s", o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
		}
	}
	return nil
}
