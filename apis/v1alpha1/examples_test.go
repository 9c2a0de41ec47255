package v1alpha1_test

import (
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// TestExamplesAreAcceptedByTheAPIServer dry-runs every example manifest of
// the provider's kinds against the real API server, so an example can never
// drift from the schema, its defaults or its CEL rules.
func TestExamplesAreAcceptedByTheAPIServer(t *testing.T) {
	testenv.Skip(t)
	for _, dir := range []string{"providerconfig", "tier", "bucket", "bucketlifecycle", "bucketaccess", "tenancy"} {
		t.Run(dir, func(t *testing.T) {
			env.DryRunExamples(t, dir)
		})
	}
}
