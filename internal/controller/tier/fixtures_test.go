package tier

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Sentinel credentials. Every fixture uses them; tests assert that they
// never appear in errors, conditions, status, annotations, events, logs or
// the emulator's request log, and never print them.
const (
	tierAK    = "AKSENTINEL4TIER"
	tierSK    = "SKSENTINEL-tier-secret-must-not-leak"
	rotatedAK = "AKSENTINEL4ROTATED"
	rotatedSK = "SKSENTINEL-rotated-secret-must-not-leak"
	adminAK   = "AKSENTINEL4ADMIN"
	adminSK   = "SKSENTINEL-admin-secret-must-not-leak"
)

var sentinels = []string{tierAK, tierSK, rotatedAK, rotatedSK, adminAK, adminSK}

const (
	ns          = "team-a"
	secretName  = "cold-creds"
	remoteBkt   = "cold-bucket"
	tierPrefix  = "tenant-a/"
	systemNS    = "crossplane-system"
	adminSecret = "rustfs-admin"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// assertNoSecret fails if s contains a sentinel, without printing s.
func assertNoSecret(t *testing.T, where, s string) {
	t.Helper()
	for i, v := range sentinels {
		if strings.Contains(s, v) {
			t.Errorf("%s contains secret value #%d", where, i)
		}
	}
}

// keyLabel names which sentinel a key is, so assertions never print one.
func keyLabel(v string) string {
	labels := map[string]string{tierAK: "<tier access key>", tierSK: "<tier secret key>",
		rotatedAK: "<rotated access key>", rotatedSK: "<rotated secret key>", "": "<empty>", redacted: redacted}
	if l, ok := labels[v]; ok {
		return l
	}
	return fmt.Sprintf("<other key of %d bytes>", len(v))
}

// printable returns r with its keys replaced by their labels.
func printable(r rustfstest.TierRecord) rustfstest.TierRecord {
	r.AccessKey, r.SecretKey = keyLabel(r.AccessKey), keyLabel(r.SecretKey)
	return r
}

type tierModifier func(*v1alpha1.Tier)

func withName(n string) tierModifier { return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Name = n } }
func withType(ty v1alpha1.TierType) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Type = ty }
}
func withPrefix(p string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Prefix = p }
}
func withForce() tierModifier { return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Force = true } }
func withSecret(name string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.CredentialsSecretRef.Name = name }
}
func withStorageClass(sc string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.StorageClass = sc }
}
func withMeta(ns, name string, created time.Duration) tierModifier {
	return func(t *v1alpha1.Tier) {
		t.Namespace, t.Name, t.UID = ns, name, types.UID("uid-"+ns+"-"+name)
		t.CreationTimestamp = metav1.NewTime(t0.Add(created))
	}
}
func withAnnotation(k string, v any) tierModifier {
	return func(t *v1alpha1.Tier) {
		b, _ := json.Marshal(v)
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[k] = string(b)
	}
}
func withFinalizer() tierModifier {
	return func(t *v1alpha1.Tier) { t.Finalizers = []string{"finalizer.managedresource.crossplane.io"} }
}
func withDeleted() tierModifier {
	return func(t *v1alpha1.Tier) {
		now := metav1.NewTime(t0)
		t.DeletionTimestamp = &now
		t.Finalizers = []string{"finalizer.managedresource.crossplane.io"}
	}
}

// tier returns a Tier of type RustFS named COLD, pointing at endpoint.
func tier(endpoint string, m ...tierModifier) *v1alpha1.Tier {
	t := &v1alpha1.Tier{
		TypeMeta: metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: v1alpha1.TierKind},
		Spec: v1alpha1.TierSpec{ForProvider: v1alpha1.TierParameters{
			Name: "COLD", Type: v1alpha1.TierTypeRustFS, Endpoint: endpoint, Bucket: remoteBkt,
			Prefix: tierPrefix, Region: "us-east-1",
			CredentialsSecretRef: v1alpha1.TierSecretReference{Name: secretName},
		}},
	}
	t.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "default"}
	t.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
		xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}
	withMeta(ns, "cold", 0)(t)
	t.Generation = 1
	for _, f := range m {
		f(t)
	}
	return t
}

func secret(namespace, name string, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

func tierSecret() *corev1.Secret {
	return secret(ns, secretName, map[string]string{"accesskey": tierAK, "secretkey": tierSK})
}

// clusterConfig returns the default ClusterProviderConfig for endpoint and
// its admin Secret.
func clusterConfig(name, endpoint string) []client.Object {
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: name}}
	pc.Spec.Endpoint = endpoint
	pc.Spec.Credentials.Source = xpv2.CredentialsSourceSecret
	pc.Spec.Credentials.SecretRef = xpv2.SecretReference{Namespace: systemNS, Name: adminSecret}
	return []client.Object{pc, secret(systemNS, adminSecret, map[string]string{"accesskey": adminAK, "secretkey": adminSK})}
}

func scheme(t *testing.T) *kruntime.Scheme {
	t.Helper()
	s := kruntime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// fakeKube returns a fake API server client with the controller's indexes.
func fakeKube(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	b := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(objs...).WithStatusSubresource(&v1alpha1.Tier{})
	for field, ix := range indexers {
		b = b.WithIndex(&v1alpha1.Tier{}, field, ix.fn)
	}
	return b.Build()
}

// get returns condition ct of cr as (status, reason).
func get(cr *v1alpha1.Tier, ct xpv2.ConditionType) string {
	c := cr.GetCondition(ct)
	return fmt.Sprintf("%s/%s", c.Status, c.Reason)
}

// statusText renders what a resource shows users besides its spec, to
// check for secret values (testenv.Shown).
func statusText(t *testing.T, cr client.Object) string { return testenv.Shown(t, cr) }

func ctx(t *testing.T) context.Context { return testenv.Context(t) }
