// Command crdpatch makes the provider's managed resources Retain-only by
// default. No kubebuilder marker can change the ["*"] default that the
// embedded xpv2.ManagedResourceSpec gives spec.managementPolicies, so after
// controller-gen this rewrites exactly that default in every CRD file of the
// given directory to [Observe, Create, Update, LateInitialize], except in the
// files of fullPolicies. It is idempotent and leaves every other byte
// unchanged.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// retainOnly is the default policy set: everything but Delete.
var retainOnly = []string{"Observe", "Create", "Update", "LateInitialize"}

// fullPolicies are the CRD files whose kinds keep the full ["*"] default: a
// BucketAccess is a credential, and deleting it must revoke the key, because
// credentials left behind are the danger (docs/design.md).
var fullPolicies = map[string]bool{
	"rustfs.m.crossplane.io_bucketaccesses.yaml": true,
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: crdpatch <crd-directory>")
		os.Exit(2)
	}
	files, err := filepath.Glob(filepath.Join(os.Args[1], "*.yaml"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, f := range files {
		if fullPolicies[filepath.Base(f)] {
			continue
		}
		if err := patchFile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func patchFile(path string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out := patch(string(in))
	if out == string(in) {
		return nil
	}
	return os.WriteFile(path, []byte(out), 0o600)
}

// patch replaces the list item "- '*'" that directly follows a
// "managementPolicies:" key and its "default:" key.
func patch(crd string) string {
	lines := strings.Split(crd, "\n")
	out := make([]string, 0, len(lines)+len(retainOnly))
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if strings.TrimSpace(lines[i]) != "managementPolicies:" || i+2 >= len(lines) {
			continue
		}
		if strings.TrimSpace(lines[i+1]) != "default:" || strings.TrimSpace(lines[i+2]) != "- '*'" {
			continue
		}
		indent := lines[i+2][:strings.Index(lines[i+2], "-")]
		out = append(out, lines[i+1])
		for _, p := range retainOnly {
			out = append(out, indent+"- "+p)
		}
		i += 2
	}
	return strings.Join(out, "\n")
}
