package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/yaml"

	xperrors "github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// exampleDirs are the example directories the demo applies. The Tenant
// examples need Crossplane core, which the demo does not run
// (tenantSkipped).
var exampleDirs = []string{"providerconfig", "tier", "bucket", "bucketlifecycle", "bucketaccess"}

// load reads every YAML document of the example directories, in directory
// then file order. A missing directory is skipped.
func load(root string) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	for _, sub := range exampleDirs {
		files, _ := filepath.Glob(filepath.Join(root, sub, "*.yaml"))
		sort.Strings(files)
		for _, f := range files {
			docs, err := decodeFile(f)
			if err != nil {
				return nil, xperrors.Wrapf(err, "cannot read %s", f)
			}
			out = append(out, docs...)
		}
	}
	return out, nil
}

// decodeFile returns the non-empty YAML documents of a file.
func decodeFile(path string) ([]*unstructured.Unstructured, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	dec := yaml.NewYAMLOrJSONDecoder(f, 4096)
	var out []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		err := dec.Decode(&u.Object)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}
