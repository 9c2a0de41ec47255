package manager

import (
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

// trim is the cache's transform for every object: it drops what the
// provider never reads, so that the cache stays small. Managed fields go
// from every object. A CustomResourceDefinition is read only by the CRD
// gate, for its group, kind, versions and conditions; its schemas, printer
// columns, conversion settings and annotations go too. They are most of a
// CRD's size, and a cluster may hold hundreds of CRDs.
//
// Secrets are watched as metadata only, and only their names and namespaces
// are read (to find the Tiers that use one). Their annotations and labels
// go: a Secret applied client-side with kubectl keeps its whole manifest,
// data included, in the kubectl.kubernetes.io/last-applied-configuration
// annotation, and the cache must hold no Secret value.
func trim(o any) (any, error) {
	o, err := cache.TransformStripManagedFields()(o)
	switch t := o.(type) {
	case *apiextensionsv1.CustomResourceDefinition:
		trimCRD(t)
	case *metav1.PartialObjectMetadata:
		if t.Kind == "Secret" && (t.APIVersion == "v1" || t.APIVersion == "") {
			t.Annotations, t.Labels, t.OwnerReferences = nil, nil, nil
		}
	case *corev1.Secret: // never cached (manager.Options); dropped whole if it were
		t.Annotations, t.Labels, t.Data, t.StringData = nil, nil, nil, nil
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
