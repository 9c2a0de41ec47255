package bucketlifecycle

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

func TestExamplesAreAcceptedByTheAPIServer(t *testing.T) {
	testenv.Skip(t)
	files, err := filepath.Glob(filepath.Join(testenv.Root(), "examples", "bucketlifecycle", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("examples/bucketlifecycle: %d files, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f) //nolint:gosec // a file of this repository
			if err != nil {
				t.Fatal(err)
			}
			u := &unstructured.Unstructured{}
			if err := yaml.Unmarshal(b, &u.Object); err != nil {
				t.Fatal(err)
			}
			if err := env.Client.Create(ctx(t), u, client.DryRunAll); err != nil {
				t.Errorf("the API server refused %s: %v", filepath.Base(f), err)
			}
		})
	}
}
