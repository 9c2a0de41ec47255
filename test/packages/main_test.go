package packages

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// settings are what make e2e passes: where the built packages are and the
// tools that read and install them.
type settings struct {
	dir      string // XPKG_DIR: the .xpkg files
	tool     string // XPKG_TOOL: hack/tools/xpkgtool
	version  string // XPKG_VERSION: the version the packages were built as
	registry string // XPKG_REGISTRY: the registry and organisation they name
	cli      string // CROSSPLANE_CLI
	core     string // CROSSPLANE_CORE
}

// env holds the settings; nil in short mode.
var env *settings

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Short() {
		s, err := readSettings()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		env = s
	}
	os.Exit(m.Run())
}

func readSettings() (*settings, error) {
	s := &settings{
		dir: os.Getenv("XPKG_DIR"), tool: os.Getenv("XPKG_TOOL"), version: os.Getenv("XPKG_VERSION"),
		registry: os.Getenv("XPKG_REGISTRY"), cli: os.Getenv("CROSSPLANE_CLI"), core: os.Getenv("CROSSPLANE_CORE"),
	}
	for name, v := range map[string]string{"XPKG_DIR": s.dir, "XPKG_TOOL": s.tool, "XPKG_VERSION": s.version,
		"XPKG_REGISTRY": s.registry, "CROSSPLANE_CLI": s.cli, "CROSSPLANE_CORE": s.core} {
		if v == "" {
			return nil, errors.Errorf("%s is not set: run make e2e, which builds the packages (make xpkg) and sets it", name)
		}
	}
	return s, nil
}

// skip skips a test in short mode (make unit).
func skip(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the packages make xpkg builds and the Crossplane binaries (run make e2e)")
	}
}

// A pkg is one package this repository builds.
type pkg struct {
	name    string // the package's repository, e.g. provider-rustfs
	runtime string // the binary of its runtime image; empty for a Configuration
}

var (
	providerPkg      = pkg{name: "provider-rustfs", runtime: "provider"}
	functionPkg      = pkg{name: "function-rustfs-tenant", runtime: "function"}
	configurationPkg = pkg{name: "configuration-rustfs-tenant"}
)

// files are the built .xpkg files of p in dir: one per platform for a
// package with a runtime, one for a Configuration.
func (p pkg) files(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, p.name+"-"+env.version+"*.xpkg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s package for %s in %s (run make xpkg): %v", p.name, env.version, dir, err)
	}
	return files
}

// source is where p is published, without a tag.
func (p pkg) source() string { return env.registry + "/" + p.name }

// cmdTimeout bounds one command a test runs.
const cmdTimeout = 5 * time.Minute

// run runs a command and returns its standard output; it fails the test
// with both outputs if the command fails.
func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, stderr, err := runErr(name, nil, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(name), strings.Join(args, " "), err, out, stderr)
	}
	return out
}

// runErr runs a command with extra environment variables and returns both
// of its outputs.
func runErr(name string, extraEnv []string, args ...string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), cmdTimeout)
	defer cancel()
	var o, e bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Env = append(os.Environ(), extraEnv...)
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}
