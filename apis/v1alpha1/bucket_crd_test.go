package v1alpha1_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A Bucket's quota must be a number of bytes from 1 to 1Ei (a fraction
// above 1 is rounded up by the provider): 0 would silently remove the
// limit in RustFS, less than a byte or a negative number is not a size,
// and anything above 1Ei is a typo.
func TestBucketQuotaAdmission(t *testing.T) {
	testenv.Skip(t)
	const refused = "quota must be a number of bytes from 1 to 1Ei"
	cases := map[string]struct {
		quota any
		want  string
	}{
		"Gibibytes":     {"10Gi", ""},
		"PlainInteger":  {int64(1048576), ""},
		"Decimal":       {"1.5Ki", ""},
		"OneExbibyte":   {"1Ei", ""},
		"Zero":          {"0", refused},
		"ZeroInteger":   {int64(0), refused},
		"Negative":      {"-1Gi", refused},
		"Fraction":      {"100m", refused},
		"Absurd":        {"1e30", refused},
		"AboveExbibyte": {"2Ei", refused},
		"NotAQuantity":  {"lots", "quota"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fp := map[string]any{"quota": tc.quota}
			spec := map[string]any{"forProvider": fp, "providerConfigRef": map[string]any{"kind": "ClusterProviderConfig", "name": "default"}}
			b := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
			b.SetGroupVersionKind(v1alpha1.BucketGroupVersionKind)
			b.SetNamespace("default")
			b.SetName("quota-" + strings.ToLower(name))
			wantAdmission(t, env.Client.Create(context.Background(), b), tc.want)
		})
	}
}
