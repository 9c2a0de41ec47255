package main

import (
	"encoding/json"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-tools/pkg/crd"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// The composite resource the Go types describe.
var tenantKind = schema.GroupKind{Group: "storage.rustfs.crossplane.io", Kind: "Tenant"}

// openAPISchema returns the Tenant's OpenAPI v3 schema, generated from the
// Go package at root, as JSON-shaped maps, without the apiVersion, kind and
// metadata that Crossplane injects itself.
func openAPISchema(root string) (map[string]any, error) {
	c, err := parseCRD(root)
	if err != nil {
		return nil, err
	}
	if len(c.Spec.Versions) != 1 || c.Spec.Versions[0].Schema == nil {
		return nil, errors.Errorf("no single-version schema for %s in %s", tenantKind, root)
	}
	b, err := json.Marshal(c.Spec.Versions[0].Schema.OpenAPIV3Schema)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode the schema")
	}
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, errors.Wrap(err, "cannot decode the schema")
	}
	props, _ := out["properties"].(map[string]any)
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		delete(props, k)
	}
	boundQuantities(out)
	return out, nil
}

// quantityMaxLength bounds the quantities (int-or-string) of the Tenant's
// schema. controller-gen sets no length on them, and the API server then
// estimates the CEL rules on them (a Bucket's quota) for strings of any
// length, once per list item: the Tenant's schema exceeded its cost budget.
// The longest quantity a Bucket accepts, 1Ei in bytes, has 19 digits.
const quantityMaxLength = 32

// boundQuantities sets quantityMaxLength on every int-or-string property
// of s that has no maxLength.
func boundQuantities(s map[string]any) {
	if s["x-kubernetes-int-or-string"] == true {
		if _, ok := s["maxLength"]; !ok {
			s["maxLength"] = quantityMaxLength
		}
	}
	for _, k := range []string{"properties", "items", "additionalProperties"} {
		switch v := s[k].(type) {
		case map[string]any:
			if k == "properties" {
				for _, p := range v {
					if m, ok := p.(map[string]any); ok {
						boundQuantities(m)
					}
				}
				continue
			}
			boundQuantities(v)
		}
	}
}

// parseCRD parses the Go package at root with controller-gen's CRD parser
// and returns the Tenant's CRD, as controller-gen would write it.
func parseCRD(root string) (apiextensionsv1.CustomResourceDefinition, error) {
	roots, err := loader.LoadRoots(root)
	if err != nil {
		return apiextensionsv1.CustomResourceDefinition{}, errors.Wrapf(err, "cannot load %s", root)
	}
	reg := &markers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		return apiextensionsv1.CustomResourceDefinition{}, errors.Wrap(err, "cannot register CRD markers")
	}
	p := &crd.Parser{
		Collector: &markers.Collector{Registry: reg},
		Checker:   &loader.TypeChecker{NodeFilters: []loader.NodeFilter{crd.Generator{}.CheckFilter()}},
	}
	crd.AddKnownTypes(p)
	for _, r := range roots {
		p.NeedPackage(r)
	}
	p.NeedCRDFor(tenantKind, nil)
	if loader.PrintErrors(roots, packages.TypeError) {
		return apiextensionsv1.CustomResourceDefinition{}, errors.Errorf("cannot parse the Go types in %s", root)
	}
	c, ok := p.CustomResourceDefinitions[tenantKind]
	if !ok {
		return apiextensionsv1.CustomResourceDefinition{}, errors.Errorf("no %s in %s", tenantKind, root)
	}
	return c, nil
}
