package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reference"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A readyNamed resource reports its Ready condition and the name a
// reference to it resolves to. Asserting this interface rather than the
// concrete types keeps the package compiling before angryjet has generated
// their methods.
type readyNamed interface {
	GetCondition(xpv2.ConditionType) xpv2.Condition
	referencedName() string
}

func (t *Tier) referencedName() string   { return t.Spec.ForProvider.Name }
func (b *Bucket) referencedName() string { return meta.GetExternalName(b) }

// nameIfReady returns the name of a Ready resource, or "" which makes
// reference resolution fail with "referenced field was empty" and retry.
func nameIfReady(mg resource.Managed) string {
	r, ok := mg.(readyNamed)
	if !ok || r.GetCondition(xpv2.TypeReady).Status != corev1.ConditionTrue {
		return ""
	}
	return r.referencedName()
}

// TierNameIfReady extracts the RustFS name of a referenced Tier once the
// Tier is Ready, so a lifecycle rule is never put before its tier is
// registered (RustFS answers "invalid tier." otherwise).
func TierNameIfReady() reference.ExtractValueFn { return nameIfReady }

// BucketNameIfReady extracts the external name of a referenced Bucket once
// the Bucket is Ready.
func BucketNameIfReady() reference.ExtractValueFn { return nameIfReady }

// localRef drops ns, the namespace of the resource holding r, from r: the
// reference resolver writes it when a selector resolves, and the CRDs refuse
// a reference that names a namespace.
func localRef(r *xpv2.NamespacedReference, ns string) {
	if r != nil && r.Namespace == ns {
		r.Namespace = ""
	}
}

// LocalReferences drops the BucketLifecycle's own namespace from its
// resolved bucket and tier references.
func (mg *BucketLifecycle) LocalReferences() {
	p := &mg.Spec.ForProvider
	localRef(p.BucketRef, mg.GetNamespace())
	for i := range p.Rules {
		for j := range p.Rules[i].Transitions {
			localRef(p.Rules[i].Transitions[j].TierRef, mg.GetNamespace())
		}
		for j := range p.Rules[i].NoncurrentVersionTransitions {
			localRef(p.Rules[i].NoncurrentVersionTransitions[j].TierRef, mg.GetNamespace())
		}
	}
}

// LocalReferences drops the BucketAccess's own namespace from its resolved
// bucket references.
func (mg *BucketAccess) LocalReferences() {
	for i := range mg.Spec.ForProvider.Buckets {
		localRef(mg.Spec.ForProvider.Buckets[i].BucketRef, mg.GetNamespace())
	}
}
