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
