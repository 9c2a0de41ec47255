package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Names of the objects every run creates.
const (
	benchNS      = "bench"
	noiseNS      = "unrelated"
	systemNS     = "crossplane-system"
	adminSecret  = "rustfs-admin"
	tierSecret   = "tier-creds"
	configName   = "bench"
	remoteBucket = "tiers"
)

// A world is what the objects point at: the managed RustFS and its
// credentials, and the remote RustFS the tiers move objects to.
type world struct {
	endpoint, accessKey, secretKey        string
	remote, remoteAccessKey, remoteSecret string
}

// setup returns the namespaces, Secrets and ClusterProviderConfig every
// managed resource uses, in creation order.
func setup(w world) []client.Object {
	secret := func(ns, name, ak, sk string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			StringData: map[string]string{"accesskey": ak, "secretkey": sk}}
	}
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: configName}}
	pc.Spec.Endpoint = w.endpoint
	pc.Spec.Credentials.Source = xpv2.CredentialsSourceSecret
	pc.Spec.Credentials.SecretRef = xpv2.SecretReference{Namespace: systemNS, Name: adminSecret}
	return []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: systemNS}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: benchNS}},
		secret(systemNS, adminSecret, w.accessKey, w.secretKey),
		secret(benchNS, tierSecret, w.remoteAccessKey, w.remoteSecret),
		pc,
	}
}

func configRef() *xpv2.ProviderConfigReference {
	return &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: configName}
}

// resources returns the i-th Tier, Bucket and BucketLifecycle, as a
// Tenant with one tier and one bucket would: the lifecycle's only rule
// moves objects to the tier after 30 days, through references.
func resources(w world, i int) []client.Object {
	name := fmt.Sprintf("bench-%04d", i)
	t := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: benchNS, Name: name}}
	t.Spec.ForProvider = v1alpha1.TierParameters{
		Name: fmt.Sprintf("BENCH-%04d", i), Type: v1alpha1.TierTypeRustFS, Endpoint: w.remote, Bucket: remoteBucket,
		Prefix: name + "/", CredentialsSecretRef: v1alpha1.TierSecretReference{Name: tierSecret},
	}
	t.Spec.ProviderConfigReference = configRef()

	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: benchNS, Name: name}}
	b.Spec.ProviderConfigReference = configRef()

	days := int32(30)
	l := &v1alpha1.BucketLifecycle{ObjectMeta: metav1.ObjectMeta{Namespace: benchNS, Name: name}}
	l.Spec.ForProvider = v1alpha1.BucketLifecycleParameters{
		BucketRef: &xpv2.NamespacedReference{Name: name},
		Rules: []v1alpha1.LifecycleRule{{
			ID: "to-tier", Status: v1alpha1.RuleEnabled, Filter: &v1alpha1.LifecycleFilter{Prefix: "data/"},
			Transitions: []v1alpha1.Transition{{Days: &days, TierRef: &xpv2.NamespacedReference{Name: name}}},
		}},
	}
	l.Spec.ProviderConfigReference = configRef()
	return []client.Object{t, b, l}
}

// noise returns n Secrets of size bytes each that no resource uses, in a
// namespace of their own. A provider that cached Secret data would hold
// them all; the provider watches Secrets as metadata only.
func noise(n, size int) []client.Object {
	out := []client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: noiseNS}}}
	data := make([]byte, size)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	for i := range n {
		out = append(out, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: noiseNS, Name: fmt.Sprintf("unrelated-%04d", i)},
			Data: map[string][]byte{"blob": data}})
	}
	return out
}
