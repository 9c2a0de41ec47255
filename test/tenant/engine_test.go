package tenant

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Environment variables naming the Crossplane binaries; make e2e sets them
// from hack/tools.sh.
const (
	envCLI  = "CROSSPLANE_CLI"
	envCore = "CROSSPLANE_CORE"
)

// The Crossplane core the render runs, whose own CRDs seed the schema cache
// of crossplane resource validate, so that it never downloads a package.
const (
	coreModule      = "github.com/crossplane/crossplane/v2"
	coreVersion     = "v2.3.4"
	crossplaneImage = "xpkg.crossplane.io/crossplane/crossplane:" + coreVersion
)

// cliTimeout bounds one crossplane command.
const cliTimeout = 2 * time.Minute

// An engine renders and validates with the real Crossplane CLI and core
// binary, against the Tenant function running locally without TLS.
type engine struct {
	cli, core string
	dir       string             // holds the function binary, functions.yaml and the validate cache
	functions string             // functions.yaml with the Development runtime annotations
	cache     string             // the seeded validate cache
	fn        *exec.Cmd          // the running function
	fnLog     *testenv.LogBuffer // the function's output
}

// startEngine builds and starts the function and seeds the validate cache.
// It fails when the Crossplane binaries are not named by the environment.
func startEngine() (*engine, error) {
	e := &engine{cli: os.Getenv(envCLI), core: os.Getenv(envCore), fnLog: &testenv.LogBuffer{}}
	if e.cli == "" || e.core == "" {
		return nil, errors.Errorf("%s and %s must name the Crossplane CLI v2.5.0 and core %s binaries: run make e2e, or export %s=$(hack/tools.sh crossplane) %s=$(hack/tools.sh crossplane-core)",
			envCLI, envCore, coreVersion, envCLI, envCore)
	}
	dir, err := os.MkdirTemp("", "tenant-render-")
	if err != nil {
		return nil, errors.Wrap(err, "cannot create a temporary directory")
	}
	e.dir = dir
	for _, step := range []func() error{e.startFunction, e.seedValidateCache} {
		if err := step(); err != nil {
			e.stop()
			return nil, err
		}
	}
	return e, nil
}

// stop stops the function and removes the engine's files.
func (e *engine) stop() {
	if e.fn != nil && e.fn.Process != nil {
		_ = e.fn.Process.Kill()
		_ = e.fn.Wait()
	}
	_ = os.RemoveAll(e.dir)
}

// startFunction builds cmd/function, starts it with --insecure on a free
// loopback port and writes functions.yaml pointing the render at it.
func (e *engine) startFunction() error {
	bin := filepath.Join(e.dir, "function")
	build := exec.Command("go", "build", "-o", bin, "./cmd/function")
	build.Dir = testenv.Root()
	if out, err := build.CombinedOutput(); err != nil {
		return errors.Wrapf(err, "cannot build cmd/function: %s", out)
	}
	addr, err := testenv.FreeAddr()
	if err != nil {
		return err
	}
	e.fn = exec.Command(bin, "--insecure", "--address="+addr, "--metrics-address=")
	e.fn.Stdout, e.fn.Stderr = e.fnLog, e.fnLog
	if err := e.fn.Start(); err != nil {
		return errors.Wrap(err, "cannot start the function")
	}
	if err := testenv.WaitListening(context.Background(), addr, 30*time.Second, nil); err != nil {
		return errors.Wrapf(err, "the function does not listen; its output:\n%s", e.fnLog)
	}
	e.functions = filepath.Join(e.dir, "functions.yaml")
	return writeFunctions(e.functions, addr)
}

// writeFunctions writes examples/tenant/functions.yaml to path, with the
// Development runtime pointed at addr.
func writeFunctions(path, addr string) error {
	fn, err := readExample("functions.yaml")
	if err != nil {
		return err
	}
	a := fn.GetAnnotations()
	a["render.crossplane.io/runtime"] = "Development"
	a["render.crossplane.io/runtime-development-target"] = addr
	fn.SetAnnotations(a)
	b, err := marshalYAML(fn)
	if err != nil {
		return err
	}
	return errors.Wrap(os.WriteFile(path, b, 0o600), "cannot write functions.yaml")
}

// seedValidateCache writes the Crossplane core's CRDs where crossplane
// resource validate looks for the package of crossplaneImage (docs/contributing.md
// §2.3). The core module is in the module cache: hack/tools.sh builds the core
// binary from it.
func (e *engine) seedValidateCache() error {
	cmd := exec.Command("go", "mod", "download", "-json", coreModule+"@"+coreVersion)
	cmd.Dir = filepath.Join(testenv.Root(), "hack", "tools", "crossplane-core")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		return errors.Wrapf(err, "cannot find the module %s@%s", coreModule, coreVersion)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return errors.Errorf("go mod download gave no directory for %s@%s: %s", coreModule, coreVersion, out)
	}
	crds, err := filepath.Glob(filepath.Join(mod.Dir, "cluster", "crds", "*.yaml"))
	if err != nil || len(crds) == 0 {
		return errors.Errorf("no CRDs in %s/cluster/crds", mod.Dir)
	}
	var pkg bytes.Buffer
	for _, f := range crds {
		b, err := os.ReadFile(f)
		if err != nil {
			return errors.Wrap(err, "cannot read a Crossplane CRD")
		}
		pkg.Write(b)
		pkg.WriteString("\n---\n")
	}
	e.cache = filepath.Join(e.dir, "validate-cache")
	dir := filepath.Join(e.cache, "xpkg.crossplane.io", "crossplane", "crossplane@"+coreVersion)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return errors.Wrap(err, "cannot create the validate cache")
	}
	return errors.Wrap(os.WriteFile(filepath.Join(dir, "package.yaml"), pkg.Bytes(), 0o600), "cannot seed the validate cache")
}

// crossplane runs the CLI with args and returns its standard output; it
// fails the test, showing the function's output too, if the CLI fails.
func (e *engine) crossplane(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, e.cli, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("crossplane %s: %v\nstdout:\n%s\nstderr:\n%s\nfunction output:\n%s", strings.Join(args[:2], " "), err,
			redact(stdout.String()), redact(stderr.String()), redact(e.fnLog.String()))
	}
	return stdout.Bytes()
}

// unstructuredList is a list of rendered or live objects.
type unstructuredList = []*unstructured.Unstructured
