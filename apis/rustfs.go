// Package apis contains the provider's Kubernetes API types.
package apis

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// AddToScheme adds all of the provider's API types to a scheme.
func AddToScheme(s *runtime.Scheme) error {
	return v1alpha1.AddToScheme(s)
}
