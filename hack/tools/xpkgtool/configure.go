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
	"slices"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"go.yaml.in/yaml/v3"
)

// The packages this repository publishes, by the last element of their
// repository: dependencies are those its Configuration depends on.
var (
	dependencies = []string{"provider-rustfs", "function-rustfs-tenant"}
	published    = append([]string{"configuration-rustfs-tenant"}, dependencies...)
)

// runConfigure is `xpkgtool configure`: it rewrites a staged copy of the
// Configuration package, or of the install manifests, for one build (see
// configure).
func runConfigure(args []string) error {
	var dir, registry, version string
	fs := flag.NewFlagSet("configure", flag.ContinueOnError)
	fs.StringVar(&dir, "dir", "", "the staged Configuration package (crossplane.yaml and the Compositions) or install manifests")
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

// configure rewrites the YAML files staged in dir for one build. In a
// Configuration package (dir holds crossplane.yaml), each dependency on a
// package of this repository points at registry and requires exactly
// version, and each Composition's functionRef that names the function as
// Crossplane names it when it installs the function from its old source
// names it as Crossplane names it for the new source. In install manifests,
// each Provider, Function and Configuration of this repository's packages
// references registry and version, and a Function named as Crossplane would
// name it is renamed the same way.
func configure(dir, registry, version string) error {
	renames := map[string]string{}
	meta := filepath.Join(dir, "crossplane.yaml")
	if _, err := os.Stat(meta); err == nil {
		err := rewrite(meta, func(doc *yaml.Node) (bool, error) {
			return true, setDependencies(doc, registry, version, renames)
		})
		if err != nil {
			return err
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if f == meta {
			continue
		}
		if err := rewrite(f, func(doc *yaml.Node) (bool, error) {
			if renameFunctionRefs(doc, renames) {
				return true, nil
			}
			return setPackage(doc, registry, version)
		}); err != nil {
			return err
		}
	}
	return nil
}

// setPackage points a Provider, Function or Configuration object of one of
// this repository's packages at registry and version, renaming a Function
// named as Crossplane names it for the old source, and reports whether it
// changed doc.
func setPackage(doc *yaml.Node, registry, version string) (bool, error) {
	root := body(doc)
	api, kind, pkg := value(root, "apiVersion"), value(root, "kind"), value(value(root, "spec"), "package")
	if api == nil || !strings.HasPrefix(api.Value, "pkg.crossplane.io/") || kind == nil || pkg == nil {
		return false, nil
	}
	ref, err := name.ParseReference(pkg.Value)
	if err != nil {
		return false, fmt.Errorf("bad package reference %q: %w", pkg.Value, err)
	}
	own := path.Base(ref.Context().RepositoryStr())
	if !slices.Contains(published, own) {
		return false, nil
	}
	from, err := installedName(ref.Context().Name())
	if err != nil {
		return false, err
	}
	to, err := installedName(registry + "/" + own)
	if err != nil {
		return false, err
	}
	pkg.Value = registry + "/" + own + ":" + version
	if n := value(value(root, "metadata"), "name"); kind.Value == "Function" && n != nil && n.Value == from {
		n.Value = to
	}
	return true, nil
}

// setDependencies points the dependencies of the Configuration doc on
// this repository's packages at registry, requiring version, and records
// in renames the old and new name of each as Crossplane names it when
// installing it.
func setDependencies(doc *yaml.Node, registry, version string, renames map[string]string) error {
	root := body(doc)
	if k := value(root, "kind"); k == nil || k.Value != "Configuration" {
		return errors.New("crossplane.yaml is not a Configuration")
	}
	deps := value(value(root, "spec"), "dependsOn")
	if deps == nil {
		return errors.New("crossplane.yaml has no spec.dependsOn")
	}
	for _, own := range dependencies {
		found := false
		for _, d := range deps.Content {
			pkg := value(d, "package")
			if pkg == nil || path.Base(pkg.Value) != own {
				continue
			}
			next := registry + "/" + own
			from, err := installedName(pkg.Value)
			if err != nil {
				return err
			}
			to, err := installedName(next)
			if err != nil {
				return err
			}
			renames[from] = to
			pkg.Value = next
			setValue(d, "version", version)
			found = true
		}
		if !found {
			return fmt.Errorf("crossplane.yaml has no dependency on a package named %s", own)
		}
	}
	return nil
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
	b, err := os.ReadFile(file)
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
	return os.WriteFile(file, out.Bytes(), 0o644)
}
