// Command xrdgen writes the Tenant (apiextensions.crossplane.io/v2, scope
// Namespaced) and XTenant (apiextensions.crossplane.io/v1, scope
// LegacyCluster, claim TenantClaim) XRDs of the tenant Configuration package.
// Both share one OpenAPI schema, generated with controller-gen's CRD parser
// from the Go types the composition function decodes, so the schema, its
// validation and the function's input stay in one place.
//
// With -check it writes nothing and fails if a file is out of date.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	root := flag.String("root", "./internal/function/tenant", "Go package holding the Tenant types.")
	out := flag.String("out", "./package/configuration", "Directory the XRD files are written to.")
	check := flag.Bool("check", false, "Fail if the files differ instead of writing them.")
	flag.Parse()
	if err := run(*root, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(root, out string, check bool) error {
	files, err := Generate(root)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join(out, n)
		if check {
			cur, err := os.ReadFile(path)
			if err != nil || differs(files[n], cur) {
				return fmt.Errorf("%s is out of date (regenerate it with go generate -tags generate ./internal/function/... from the repository root)", path)
			}
			continue
		}
		if err := os.WriteFile(path, files[n], 0o644); err != nil { // A package manifest is world-readable.
			return err
		}
	}
	return nil
}
