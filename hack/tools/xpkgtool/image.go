package main

import (
	"flag"
	"fmt"
	"os"
	"path"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// binDir holds the binary of every image; the binary is its entrypoint.
const binDir = "usr/local/bin"

// An imageSpec is everything an image is built from: the same spec, with
// the same binary and CA bundle contents, gives the same digest.
type imageSpec struct {
	Binary  string            // the static binary
	Name    string            // installed as /usr/local/bin/<Name>
	CACerts string            // PEM bundle, installed as /etc/ssl/certs/ca-certificates.crt (caBundle)
	OS      string            // GOOS of the binary
	Arch    string            // GOARCH of the binary
	Epoch   int64             // every timestamp, in seconds since 1970 (SOURCE_DATE_EPOCH)
	Ports   []string          // exposed TCP ports
	Labels  map[string]string // image labels
}

// buildImage assembles the runtime image of spec: a layer of users, CA
// certificates and directories, a layer with the binary, and a config that
// runs the binary as the nonroot user.
func buildImage(s imageSpec) (v1.Image, error) {
	t := time.Unix(s.Epoch, 0).UTC()
	base, err := baseEntries(s.CACerts)
	if err != nil {
		return nil, err
	}
	bin, err := os.ReadFile(s.Binary)
	if err != nil {
		return nil, fmt.Errorf("cannot read the binary: %w", err)
	}
	baseLayer, err := layer(base, t)
	if err != nil {
		return nil, err
	}
	binLayer, err := layer([]entry{file(path.Join(binDir, s.Name), 0o755, bin)}, t)
	if err != nil {
		return nil, err
	}
	img, err := mutate.Append(empty.Image,
		mutate.Addendum{Layer: baseLayer, History: v1.History{Created: v1.Time{Time: t}, CreatedBy: "xpkgtool: users, CA certificates, directories"}},
		mutate.Addendum{Layer: binLayer, History: v1.History{Created: v1.Time{Time: t}, CreatedBy: "xpkgtool: /" + path.Join(binDir, s.Name)}},
	)
	if err != nil {
		return nil, fmt.Errorf("cannot append the layers: %w", err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("cannot read the image config: %w", err)
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Created = s.OS, s.Arch, v1.Time{Time: t}
	cf.Config = runConfig(s)
	return mutate.ConfigFile(img, cf)
}

// runConfig is how the image runs: the binary as entrypoint, as the nonroot
// user, with the CA bundle named for Go's TLS stack.
func runConfig(s imageSpec) v1.Config {
	c := v1.Config{
		Entrypoint: []string{"/" + path.Join(binDir, s.Name)},
		User:       fmt.Sprintf("%d:%d", nonrootID, nonrootID),
		WorkingDir: "/",
		Env: []string{
			"PATH=/usr/local/bin:/usr/bin:/bin",
			"SSL_CERT_FILE=/" + caBundle,
		},
		Labels: s.Labels,
	}
	if len(s.Ports) > 0 {
		c.ExposedPorts = map[string]struct{}{}
		for _, p := range s.Ports {
			c.ExposedPorts[p+"/tcp"] = struct{}{}
		}
	}
	return c
}

// runImage is `xpkgtool image`: it builds the runtime image of a package
// (runtimes.go: name, ports, labels) and writes it as a tarball that
// `crossplane xpkg build --embed-runtime-image-tarball` reads, then prints
// the image's digest.
func runImage(args []string) error {
	var pkg, binary, version, goos, goarch, caCerts, tag, out string
	var epoch int64
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	fs.StringVar(&pkg, "runtime", "", "the package whose runtime image to build, e.g. provider-rustfs")
	fs.StringVar(&binary, "binary", "", "the static binary to install (xpkgtool binary)")
	fs.StringVar(&version, "version", "", "the version of the image label")
	fs.StringVar(&caCerts, "ca-certs", defaultCACerts, "PEM CA bundle to install")
	fs.StringVar(&goos, "os", "linux", "operating system of the binary")
	fs.StringVar(&goarch, "arch", "amd64", "architecture of the binary")
	fs.Int64Var(&epoch, "epoch", 0, "every timestamp, in seconds since 1970 (SOURCE_DATE_EPOCH)")
	fs.StringVar(&tag, "tag", "runtime:latest", "the tag recorded in the tarball (not part of the digest)")
	fs.StringVar(&out, "o", "", "the image tarball to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if pkg == "" || binary == "" || version == "" || out == "" {
		return fmt.Errorf("--runtime, --binary, --version and -o are required")
	}
	r, err := runtimeNamed(pkg)
	if err != nil {
		return err
	}
	s := r.spec(version, goos, goarch, binary, caCerts)
	s.Epoch = epoch
	return writeImage(s, tag, out)
}

// writeImage builds the image of s and writes it to the tarball out.
func writeImage(s imageSpec, tag, out string) error {
	img, err := buildImage(s)
	if err != nil {
		return err
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		return fmt.Errorf("bad --tag: %w", err)
	}
	if err := tarball.WriteToFile(out, ref, img); err != nil {
		return fmt.Errorf("cannot write %s: %w", out, err)
	}
	d, err := img.Digest()
	if err != nil {
		return fmt.Errorf("cannot compute the digest: %w", err)
	}
	fmt.Println(d)
	return nil
}
