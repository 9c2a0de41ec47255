package manager

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

var managedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}}

// crd returns a CRD with two versions, as the API server serves it, or as
// the cache should keep it when trimmed.
func crd(trimmed bool) *apiextensionsv1.CustomResourceDefinition {
	c := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "tiers.rustfs.m.crossplane.io", Labels: map[string]string{"a": "b"}},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "rustfs.m.crossplane.io",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: "Tier", Plural: "tiers"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1alpha1", Served: true, Storage: true},
				{Name: "v1alpha0", Served: false},
			},
		},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
			{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue},
		}},
	}
	if trimmed {
		return c
	}
	c.ManagedFields = managedFields
	c.Annotations = map[string]string{"kubectl.kubernetes.io/last-applied-configuration": "{...the whole CRD...}"}
	c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
	schema := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}}
	for i := range c.Spec.Versions {
		c.Spec.Versions[i].Schema = schema
		c.Spec.Versions[i].Subresources = &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}}
		c.Spec.Versions[i].AdditionalPrinterColumns = []apiextensionsv1.CustomResourceColumnDefinition{{Name: "READY", Type: "string"}}
	}
	return c
}

// tier returns a Tier, with managed fields unless trimmed.
func tier(trimmed bool) *v1alpha1.Tier {
	t := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "cold", Annotations: map[string]string{"kept": "yes"}}}
	t.Spec.ForProvider.Name = "COLD"
	if !trimmed {
		t.ManagedFields = managedFields
	}
	return t
}

// secretMeta returns a Secret as the metadata watch sees it, applied with
// kubectl client-side, or as the cache should keep it when trimmed.
func secretMeta(trimmed bool) *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "creds", UID: "u", ResourceVersion: "7"}}
	if trimmed {
		return m
	}
	m.ManagedFields = managedFields
	m.Annotations = map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"data":{"secretkey":"c2VjcmV0"}}`}
	m.Labels = map[string]string{"team": "a"}
	m.OwnerReferences = []metav1.OwnerReference{{Kind: "Thing", Name: "owner"}}
	return m
}

func namespaceMeta() *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"tenant": "a"}, Annotations: map[string]string{"k": "v"}}}
}

func TestTrim(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     any
		want   any
	}{
		"CustomResourceDefinition": {
			reason: "A CRD keeps what the CRD gate reads (group, kind, versions served, conditions) and loses schemas, columns, conversion, annotations and managed fields.",
			in:     crd(false), want: crd(true),
		},
		"ManagedResource": {
			reason: "Any other object loses only its managed fields.",
			in:     tier(false), want: tier(true),
		},
		"SecretMetadata": {
			reason: "A Secret seen as metadata keeps its name, namespace and versions, and loses annotations (kubectl's last-applied-configuration holds its data), labels and owners.",
			in:     secretMeta(false), want: secretMeta(true),
		},
		"NamespaceMetadata": {
			reason: "Other metadata-only objects keep their labels and annotations: the tenancy rules read Namespace labels.",
			in:     namespaceMeta(), want: namespaceMeta(),
		},
		"NotAnObject": {
			reason: "What is not an object passes unchanged.",
			in:     "tombstone", want: "tombstone",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := trim(tc.in)
			if err != nil {
				t.Fatalf("%s\ntrim(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ntrim(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
