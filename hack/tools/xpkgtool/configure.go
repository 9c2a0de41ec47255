package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"go.yaml.in/yaml/v3"
)

// ownPackages are the packages this repository builds that its
// Configuration depends on, by the last element of their repository.
var ownPackages = []string{"provider-rustfs", "function-rustfs-tenant"}

// runConfigure is `xpkgtool configure`: it rewrites a staged copy of the
// Configuration package for one build (see configure).
func runConfigure(args []string) error {
	var dir, registry, version string
	fs := flag.NewFlagSet("configure", flag.ContinueOnError)
	fs.StringVar(&dir, "dir", "", "the staged Configuration package (crossplane.yaml and the Compositions)")
	fs.StringVar(&registry, "registry", "", "the registry and organisation the packages are pushed to, e.g. xpkg.crossplane.io/crossplane-contrib")
	fs.StringVar(&version, "version", "", "the version just built, e.g. v0.2.0")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if dir == "" || registry == "" || version == "" {
		return errors.New("--dir, --registry and --version are required")
	}
	return configure(dir, registry, version)
}

// configure rewrites the Configuration package staged in dir: each
// dependency on a package of this repository points at registry and
// requires exactly version, and each functionRef that names the function as
// Crossplane names it when it installs the function from its old source
// names it as Crossplane names it for the new source.
func configure(dir, registry, version string) error {
	var renames map[string]string
	err := rewrite(filepath.Join(dir, "crossplane.yaml"), func(doc *yaml.Node) (bool, error) {
		var err error
		renames, err = setDependencies(doc, registry, version)
		return err == nil, err
	})
	if err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if filepath.Base(f) == "crossplane.yaml" {
			continue
		}
		if err := rewrite(f, func(doc *yaml.Node) (bool, error) { return renameFunctionRefs(doc, renames), nil }); err != nil {
			return err
		}
	}
	return nil
}

// setDependencies points the dependencies of the Configuration doc on
// ownPackages at registry, requiring version, and returns the old and new
// name of each such package as Crossplane names it when installing it.
func setDependencies(doc *yaml.Node, registry, version string) (map[string]string, error) {
	root := body(doc)
	if k := value(root, "kind"); k == nil || k.Value != "Configuration" {
		return nil, errors.New("crossplane.yaml is not a Configuration")
	}
	deps := value(value(root, "spec"), "dependsOn")
	if deps == nil {
		return nil, errors.New("crossplane.yaml has no spec.dependsOn")
	}
	renames := map[string]string{}
	for _, own := range ownPackages {
		found := false
		for _, d := range deps.Content {
			pkg := value(d, "package")
			if pkg == nil || path.Base(pkg.Value) != own {
				continue
			}
			next := registry + "/" + own
			from, err := installedName(pkg.Value)
			if err != nil {
				return nil, err
			}
			to, err := installedName(next)
			if err != nil {
				return nil, err
			}
			renames[from] = to
			pkg.Value = next
			setValue(d, "version", version)
			found = true
		}
		if !found {
			return nil, fmt.Errorf("crossplane.yaml has no dependency on a package named %s", own)
		}
	}
	return renames, nil
}

// renameFunctionRefs renames the functionRefs of a Composition doc by
// renames and reports whether it changed any.
func renameFunctionRefs(doc *yaml.Node, renames map[string]string) bool {
	root := body(doc)
	if k := value(root, "kind"); k == nil || k.Value != "Composition" {
		return false
	}
	changed := false
	pipeline := value(value(root, "spec"), "pipeline")
	if pipeline == nil {
		return false
	}
	for _, step := range pipeline.Content {
		ref := value(value(step, "functionRef"), "name")
		if ref == nil {
			continue
		}
		if to, ok := renames[ref.Value]; ok && to != ref.Value {
			ref.Value, changed = to, true
		}
	}
	return changed
}

// installedName is the name Crossplane gives a package of source when it
// installs it as a dependency: the repository path (without the registry)
// made a DNS label.
func installedName(source string) (string, error) {
	repo, err := name.NewRepository(source)
	if err != nil {
		return "", fmt.Errorf("bad package source %q: %w", source, err)
	}
	return dnsLabel(repo.RepositoryStr()), nil
}

// dnsLabel keeps the lower-case letters and digits of the first 63
// characters of s, makes each '.', '/', ':' and '-' a hyphen, and trims
// hyphens from both ends.
func dnsLabel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && i < 63; i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			b.WriteByte(c)
		case strings.IndexByte("./:-", c) >= 0:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// rewrite applies edit to every YAML document of file and writes the file
// back, keeping comments, if edit changed any document.
func rewrite(file string, edit func(*yaml.Node) (bool, error)) error {
	b, err := os.ReadFile(file) //nolint:gosec // A file of the staged package.
	if err != nil {
		return err
	}
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	changed := false
	for {
		doc := &yaml.Node{}
		if err := dec.Decode(doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return fmt.Errorf("cannot parse %s: %w", file, err)
		}
		c, err := edit(doc)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		changed = changed || c
		docs = append(docs, doc)
	}
	if !changed {
		return nil
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return fmt.Errorf("cannot encode %s: %w", file, err)
		}
	}
	return os.WriteFile(file, out.Bytes(), 0o644) //nolint:gosec // A file of the staged package.
}
