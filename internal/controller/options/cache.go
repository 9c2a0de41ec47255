package options

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

// trim is the cache's transform for every object: it drops what the
// provider never reads, so that the cache stays small. Managed fields go
// from every object. A CustomResourceDefinition is read only by the CRD
// gate, for its group, kind, versions and conditions; its schemas, printer
// columns, conversion settings and annotations go too. They are most of a
// CRD's size, and a cluster may hold hundreds of CRDs.
func trim(o any) (any, error) {
	o, err := cache.TransformStripManagedFields()(o)
	if crd, ok := o.(*apiextensionsv1.CustomResourceDefinition); ok {
		trimCRD(crd)
	}
	return o, err
}

// trimCRD keeps of each version its name and whether it is served and
// stored.
func trimCRD(crd *apiextensionsv1.CustomResourceDefinition) {
	crd.Annotations = nil
	crd.Spec.Conversion = nil
	for i, v := range crd.Spec.Versions {
		crd.Spec.Versions[i] = apiextensionsv1.CustomResourceDefinitionVersion{Name: v.Name, Served: v.Served, Storage: v.Storage}
	}
}
