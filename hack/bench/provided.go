package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// The floor run writes its objects as the provider leaves them once they
// are Ready (from a dump of a normal run's objects), so that the floor
// program caches objects of the same size as the provider does: the
// annotations, the finalizer and the resolved references the provider
// writes, the status (conditions, atProvider, custody record) and one
// ProviderConfigUsage per resource. The report's object sizes line shows
// that they match.

// Annotations the provider's Tier and BucketLifecycle controllers keep.
const (
	annotationCredentials = v1alpha1.Group + "/credentials"
	annotationLifecycle   = v1alpha1.Group + "/lifecycle"
)

// A provided is what the provider would have written on the objects of
// one run: the RustFS deployment's identity, when, and the hashes it
// records.
type provided struct {
	world
	identity string
	at       metav1.Time
}

func newProvided(w world, deployment string) provided {
	return provided{world: w, identity: "deployment:" + deployment, at: metav1.Now().Rfc3339Copy()}
}

// hash returns the hex SHA-256 of s, as the provider records key hashes.
func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// prepare sets on o, before its create, the metadata and the spec the
// provider writes: the finalizer, the external-name and create annotations
// and, for a BucketLifecycle, its references resolved.
func (p provided) prepare(o client.Object) {
	stamp := p.at.UTC().Format(time.RFC3339)
	meta.AddFinalizer(o, managed.FinalizerName)
	meta.AddAnnotations(o, map[string]string{
		meta.AnnotationKeyExternalCreatePending: stamp, meta.AnnotationKeyExternalCreateSucceeded: stamp,
	})
	switch t := o.(type) {
	case *v1alpha1.Tier:
		meta.SetExternalName(t, t.Spec.ForProvider.Name)
		meta.AddAnnotations(t, map[string]string{annotationCredentials: fmt.Sprintf(
			`{"secretName":%q,"secretResourceVersion":"227","accessKeyHash":%q}`, tierSecret, hash(p.remoteAccessKey))})
	case *v1alpha1.Bucket:
		meta.SetExternalName(t, t.GetName())
	case *v1alpha1.BucketLifecycle:
		h := hash(t.GetName())[:32]
		meta.AddAnnotations(t, map[string]string{annotationLifecycle: fmt.Sprintf(`{"appliedHash":%q,"observedHash":%q}`, h, h)})
		t.Spec.ForProvider.Bucket = t.Spec.ForProvider.BucketRef.Name
		for i := range t.Spec.ForProvider.Rules {
			for j := range t.Spec.ForProvider.Rules[i].Transitions {
				t.Spec.ForProvider.Rules[i].Transitions[j].StorageClass = "BENCH-" + t.GetName()[len("bench-"):]
			}
		}
	}
}

// condition returns a condition of the type, status and reason at p.at.
func (p provided) condition(t xpv2.ConditionType, s corev1.ConditionStatus, r xpv2.ConditionReason, gen int64) xpv2.Condition {
	return xpv2.Condition{Type: t, Status: s, Reason: r, LastTransitionTime: p.at, ObservedGeneration: gen}
}

// custody returns the custody record of a resource created on RustFS.
func (p provided) custody(object string) *v1alpha1.Custody {
	return &v1alpha1.Custody{Identity: p.identity, Object: object, Config: v1alpha1.ClusterProviderConfigKind,
		Endpoint: p.endpoint, AccessProvenAt: &p.at, Eligible: true, Acquired: v1alpha1.AcquiredCreated}
}

// record returns the custody record the provider holds for o, of kind,
// once Ready: the record of its tier name or bucket, in phase Created.
func (p provided) record(o custody.Subject, kind string) *v1alpha1.CustodyRecord {
	c, k := o.GetCustody(), v1alpha1.CustodyKind(kind)
	return &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: v1alpha1.CustodyRecordName(p.identity, k, c.Object)},
		Spec: v1alpha1.CustodyRecordSpec{Identity: p.identity, Kind: k, Object: c.Object, Phase: v1alpha1.PhaseCreated, Holder: custody.HolderOf(o)}}
}

// ready sets o's status, after its create, as the provider writes it once
// o is Ready.
func (p provided) ready(o client.Object) {
	g := o.GetGeneration()
	available, synced := xpv2.Available(), xpv2.ReconcileSuccess()
	available.LastTransitionTime, synced.LastTransitionTime, synced.ObservedGeneration = p.at, p.at, g
	switch t := o.(type) {
	case *v1alpha1.Tier:
		f := t.Spec.ForProvider
		tierAvailable := available
		tierAvailable.ObservedGeneration = g
		t.Status.SetConditions(tierAvailable, synced,
			p.condition(v1alpha1.TypeTierConflict, corev1.ConditionFalse, v1alpha1.ReasonNoConflict, g),
			p.condition(v1alpha1.TypeRemoteHealthy, corev1.ConditionUnknown, v1alpha1.ReasonVerifyPending, g))
		t.Status.Conditions[3].Message = "the first verify of the tier is not due yet"
		key := hash(p.remoteAccessKey)
		t.Status.AtProvider = v1alpha1.TierObservation{Type: f.Type, Endpoint: f.Endpoint, Bucket: f.Bucket, Prefix: f.Prefix, AccessKeyHash: key,
			Credentials: &v1alpha1.TierCredentialsStatus{SecretName: tierSecret, SecretResourceVersion: "227", AccessKeyHash: key},
			Stats:       &v1alpha1.TierStats{InventoryStatus: "accounted", ObservedAt: &p.at}}
		t.Status.Custody = p.custody(f.Name)
	case *v1alpha1.Bucket:
		t.Status.SetConditions(available, synced, p.condition(v1alpha1.TypeBucketConflict, corev1.ConditionFalse, v1alpha1.ReasonNoConflict, g))
		t.Status.AtProvider = v1alpha1.BucketObservation{Region: "us-east-1"}
		t.Status.Custody = p.custody(t.GetName())
	case *v1alpha1.BucketLifecycle:
		t.Status.SetConditions(synced, available, p.condition(v1alpha1.TypeLifecycleDegraded, corev1.ConditionFalse, v1alpha1.ReasonAllFieldsKept, 0))
		h := hash(t.GetName())[:32]
		t.Status.AtProvider = v1alpha1.BucketLifecycleObservation{RuleIDs: []string{"to-tier"}, Rules: 1, AppliedHash: h, ObservedHash: h}
		t.Status.Custody = p.custody(t.Spec.ForProvider.Bucket)
	}
}

// usage returns the ProviderConfigUsage the provider creates for o, a
// managed resource of kind gvk that the API server has created.
func usage(o client.Object, gvk schema.GroupVersionKind) *v1alpha1.ProviderConfigUsage {
	u := &v1alpha1.ProviderConfigUsage{ObjectMeta: metav1.ObjectMeta{
		Namespace: o.GetNamespace(), Name: string(o.GetUID()),
		Labels: map[string]string{xpv2.LabelKeyProviderName: configName, xpv2.LabelKeyProviderKind: v1alpha1.ClusterProviderConfigKind},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: o.GetName(), UID: o.GetUID(),
			Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}},
	}}
	u.ProviderConfigReference = xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: configName}
	u.ResourceReference = xpv2.TypedReference{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: o.GetName()}
	return u
}
