package naming_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A copy is a field of a CRD or XRD schema that states a naming rule set in
// CEL: each rule as its own validation, or all of them as one (combined).
type copyOf struct {
	rules    naming.Rules
	combined bool
	// subject names the field in the messages; default the last path
	// element.
	subject string
}

// Where the provider's CRDs and the Tenant XRDs are, under the repository
// root.
var (
	crdDir = filepath.Join("package", "provider", "crds")
	xrdDir = filepath.Join("package", "configuration")
)

// copies are the fields that carry the rules, by file and property path
// under the schema's root. A test fails for any other field whose CEL
// names a tier or bucket character class.
var copies = map[string]map[string]copyOf{
	filepath.Join(crdDir, "rustfs.m.crossplane.io_tiers.yaml"): {
		"spec.forProvider.name": {rules: naming.Tier},
	},
	filepath.Join(crdDir, "rustfs.m.crossplane.io_bucketlifecycles.yaml"): {
		"spec.forProvider.bucket": {rules: naming.Bucket},
	},
	filepath.Join(crdDir, "rustfs.m.crossplane.io_bucketaccesses.yaml"): {
		"spec.forProvider.buckets[].bucket": {rules: naming.Bucket},
	},
	filepath.Join(xrdDir, "xrd-tenant.yaml"):  tenantCopies,
	filepath.Join(xrdDir, "xrd-xtenant.yaml"): tenantCopies,
}

var tenantCopies = map[string]copyOf{
	"spec.tiers[].name":       {rules: naming.Tier},
	"spec.buckets[].name":     {rules: naming.Bucket},
	"spec.access[].buckets[]": {rules: naming.Bucket, subject: "bucket"},
	"spec.buckets[].lifecycle.rules[].transition.storageClass":                     {rules: naming.Tier, combined: true},
	"spec.buckets[].lifecycle.rules[].transitions[].storageClass":                  {rules: naming.Tier, combined: true},
	"spec.buckets[].lifecycle.rules[].noncurrentVersionTransition.storageClass":    {rules: naming.Tier, combined: true},
	"spec.buckets[].lifecycle.rules[].noncurrentVersionTransitions[].storageClass": {rules: naming.Tier, combined: true},
}

// A validation is one x-kubernetes-validations entry.
type validation struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// A property is the part of a schema the test reads.
type property struct {
	MinLength   *int                `json:"minLength"`
	MaxLength   *int                `json:"maxLength"`
	Validations []validation        `json:"x-kubernetes-validations"`
	Properties  map[string]property `json:"properties"`
	Items       *property           `json:"items"`
}

// want returns the validations c must carry at a field named field.
func (c copyOf) want(field string) []validation {
	if c.combined {
		return []validation{{Rule: strings.Join(c.rules.CELs(), " && ")}}
	}
	out := make([]validation, len(c.rules.Rules))
	for i, r := range c.rules.Rules {
		out[i] = validation{Rule: r.CEL, Message: field + " " + r.Message}
	}
	return out
}

// The CEL rules of every CRD and XRD copy are the table's, in order, with
// the table's messages and length bounds.
func TestSchemasCarryTheTable(t *testing.T) {
	for file, fields := range copies {
		root := readSchema(t, file)
		seen := map[string]bool{}
		walk("", root, func(path string, p property) {
			c, ok := fields[path]
			if !ok {
				expectNoStrayCopy(t, file, path, p)
				return
			}
			seen[path] = true
			field := path[strings.LastIndex(path, ".")+1:]
			if c.subject != "" {
				field = c.subject
			}
			// Rules that are not about the name's form (immutability)
			// may follow the table's.
			want := c.want(field)
			got := p.Validations[:min(len(want), len(p.Validations))]
			if c.combined {
				got = stripMessages(got)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %s: the CEL rules differ from naming.%s's table: -want +got:\n%s", file, path, c.rules.Kind, diff)
			}
			if p.MinLength == nil || p.MaxLength == nil || *p.MinLength != c.rules.MinLength || *p.MaxLength != c.rules.MaxLength {
				t.Errorf("%s %s: want minLength %d and maxLength %d", file, path, c.rules.MinLength, c.rules.MaxLength)
			}
		})
		for path := range fields {
			if !seen[path] {
				t.Errorf("%s has no field %s", file, path)
			}
		}
	}
}

// The shared tiers a ClusterProviderConfig lists are tier names by their
// characters and length.
func TestSharedTiersAreTierNames(t *testing.T) {
	for _, kind := range []string{"providerconfigs", "clusterproviderconfigs"} {
		file := filepath.Join(crdDir, "rustfs.m.crossplane.io_"+kind+".yaml")
		var items *property
		walk("", readSchema(t, file), func(path string, p property) {
			if path == "spec.sharedTiers" {
				items = p.Items
			}
		})
		if items == nil {
			t.Fatalf("%s has no spec.sharedTiers", file)
		}
		b, _ := os.ReadFile(filepath.Join(testenv.Root(), file)) // read again for the pattern
		if !strings.Contains(string(b), "pattern: "+naming.TierCharacters) {
			t.Errorf("%s: sharedTiers items want pattern %s", file, naming.TierCharacters)
		}
		if *items.MinLength != naming.Tier.MinLength || *items.MaxLength != naming.Tier.MaxLength {
			t.Errorf("%s: sharedTiers items want lengths %d to %d", file, naming.Tier.MinLength, naming.Tier.MaxLength)
		}
	}
}

func stripMessages(vs []validation) []validation {
	out := slices.Clone(vs)
	for i := range out {
		out[i].Message = ""
	}
	return out
}

// expectNoStrayCopy fails for CEL at an unlisted path that uses a tier or
// bucket name's character class: a copy the table does not hold.
func expectNoStrayCopy(t *testing.T, file, path string, p property) {
	t.Helper()
	for _, v := range p.Validations {
		if strings.Contains(v.Rule, "A-Z0-9_.-") || strings.Contains(v.Rule, "a-z0-9.-") {
			t.Errorf("%s %s: a naming rule the test does not check against the table: %s", file, path, v.Rule)
		}
	}
}

// walk calls fn for every property under p, with its path: names joined
// by '.', and "[]" after an array.
func walk(path string, p property, fn func(string, property)) {
	if path != "" {
		fn(path, p)
	}
	if p.Items != nil {
		walk(path+"[]", *p.Items, fn)
	}
	for name, child := range p.Properties {
		walk(strings.TrimPrefix(path+"."+name, "."), child, fn)
	}
}

// readSchema returns the OpenAPI schema of the only version of the CRD or
// XRD in file.
func readSchema(t *testing.T, file string) property {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.Root(), file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema property `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil || len(doc.Spec.Versions) != 1 {
		t.Fatalf("%s: %v (want one version)", file, err)
	}
	return doc.Spec.Versions[0].Schema.OpenAPIV3Schema
}
