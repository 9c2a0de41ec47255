package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// module is the Go module the binaries are built from.
const module = "github.com/crossplane-contrib/provider-rustfs"

// A runtimeImage is the runtime image of one package: make xpkg builds it as a
// tarball (xpkgtool binary and image) and the Dockerfile under
// cluster/images/<Package> builds the same with Docker (xpkgtool
// dockerfiles). Both read it from here and nowhere else.
type runtimeImage struct {
	Package string   // the package, and the directory of its Dockerfile
	Cmd     string   // built from ./cmd/<Cmd>, installed as /usr/local/bin/<Cmd>
	Ports   []string // exposed TCP ports
}

// runtimeImages are the packages of this repository that embed a runtime image.
var runtimeImages = []runtimeImage{
	{Package: "provider-rustfs", Cmd: "provider", Ports: []string{"8080", "8081"}},
	{Package: "function-rustfs-tenant", Cmd: "function", Ports: []string{"9443", "8080"}},
}

// runtimeNamed returns the runtime of the package pkg.
func runtimeNamed(pkg string) (runtimeImage, error) {
	var names []string
	for _, r := range runtimeImages {
		if r.Package == pkg {
			return r, nil
		}
		names = append(names, r.Package)
	}
	return runtimeImage{}, fmt.Errorf("no runtime image for package %q; want one of %s", pkg, strings.Join(names, ", "))
}

// labels are the image labels of r at version.
func (r runtimeImage) labels(version string) map[string]string {
	return map[string]string{
		"org.opencontainers.image.licenses": "Apache-2.0",
		"org.opencontainers.image.source":   "https://" + module,
		"org.opencontainers.image.title":    r.Package,
		"org.opencontainers.image.version":  version,
	}
}

// spec is the image spec of r at version for one platform, with the
// binary and CA bundle at the given paths.
func (r runtimeImage) spec(version, goos, goarch, binary, caCerts string) imageSpec {
	return imageSpec{
		Binary: binary, Name: r.Cmd, CACerts: caCerts, OS: goos, Arch: goarch,
		Ports: r.Ports, Labels: r.labels(version),
	}
}

// goBuildEnv is the environment of every build of a runtime binary, but
// for GOOS and GOARCH: a static binary.
var goBuildEnv = []string{"CGO_ENABLED=0"}

// goBuildArgs are the arguments of `go` that build r's binary at version
// into out, run in the repository's root: as the Makefile's BUILDFLAGS and
// LDFLAGS.
func (r runtimeImage) goBuildArgs(version, out string) []string {
	return []string{
		"build", "-trimpath", "-tags", "grpcnotrace",
		"-ldflags", "-s -w -X " + module + "/internal/version.Version=" + version,
		"-o", out, "./cmd/" + r.Cmd,
	}
}

// runBinary is `xpkgtool binary`: it builds the static binary of a
// runtime for one platform, from the module in the current directory.
func runBinary(args []string) error {
	var pkg, goos, goarch, version, out string
	fs := flag.NewFlagSet("binary", flag.ContinueOnError)
	fs.StringVar(&pkg, "runtime", "", "the package whose runtime binary to build, e.g. provider-rustfs")
	fs.StringVar(&goos, "os", "linux", "GOOS")
	fs.StringVar(&goarch, "arch", "amd64", "GOARCH")
	fs.StringVar(&version, "version", "", "the version stamped into the binary")
	fs.StringVar(&out, "o", "", "the binary to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if pkg == "" || version == "" || out == "" {
		return errors.New("--runtime, --version and -o are required")
	}
	r, err := runtimeNamed(pkg)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", r.goBuildArgs(version, out)...)
	cmd.Env = append(append(os.Environ(), goBuildEnv...), "GOOS="+goos, "GOARCH="+goarch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/%s for %s/%s: %w", r.Cmd, goos, goarch, err)
	}
	return nil
}
