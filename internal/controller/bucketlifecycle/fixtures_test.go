package bucketlifecycle

import (
	"context"
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
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Sentinel credentials of the provider's RustFS identity. Tests assert that
// they never appear in errors, conditions, status, annotations, events or
// the emulator's request log, and never print them.
const (
	adminAK = "AKSENTINEL4LIFECYCLE"
	adminSK = "SKSENTINEL-lifecycle-secret-must-not-leak"
)

var sentinels = []string{adminAK, adminSK}

const (
	ns          = "team-a"
	bucketName  = "app-data"
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

type lcModifier func(*v1alpha1.BucketLifecycle)

func withRules(rules ...v1alpha1.LifecycleRule) lcModifier {
	return func(cr *v1alpha1.BucketLifecycle) { cr.Spec.ForProvider.Rules = rules }
}

func withBucket(b string) lcModifier {
	return func(cr *v1alpha1.BucketLifecycle) { cr.Spec.ForProvider.Bucket = b }
}

func withMeta(namespace, name string, created time.Duration) lcModifier {
	return func(cr *v1alpha1.BucketLifecycle) {
		cr.Namespace, cr.Name, cr.UID = namespace, name, types.UID("uid-"+namespace+"-"+name)
		cr.CreationTimestamp = metav1.NewTime(t0.Add(created))
	}
}

func withProviderConfig(name string) lcModifier {
	return func(cr *v1alpha1.BucketLifecycle) {
		cr.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: name}
	}
}

// lifecycle returns a BucketLifecycle of bucket app-data with one rule
// that expires objects after 30 days.
func lifecycle(m ...lcModifier) *v1alpha1.BucketLifecycle {
	cr := &v1alpha1.BucketLifecycle{
		TypeMeta: metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: v1alpha1.BucketLifecycleKind},
	}
	cr.Spec.ForProvider.Bucket = bucketName
	cr.Spec.ForProvider.Rules = []v1alpha1.LifecycleRule{specRule("expire", expireAfter(30))}
	cr.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
		xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}
	withProviderConfig("default")(cr)
	withMeta(ns, "lifecycle", 0)(cr)
	cr.Generation = 1
	for _, f := range m {
		f(cr)
	}
	return cr
}

// clusterConfig returns a ClusterProviderConfig for endpoint and its Secret.
func clusterConfig(name, endpoint string) []client.Object {
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: name}}
	pc.Spec.Endpoint = endpoint
	pc.Spec.Credentials.Source = xpv2.CredentialsSourceSecret
	pc.Spec.Credentials.SecretRef = xpv2.SecretReference{Namespace: systemNS, Name: adminSecret}
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: systemNS, Name: adminSecret},
		Data:       map[string][]byte{"accesskey": []byte(adminAK), "secretkey": []byte(adminSK)},
	}
	return []client.Object{pc, s}
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
	b := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(objs...).WithStatusSubresource(&v1alpha1.BucketLifecycle{}, &v1alpha1.Bucket{}, &v1alpha1.Tier{}).
		WithIndex(&v1alpha1.Bucket{}, custody.IndexExternalName, custody.IndexByExternalName)
	for key, fn := range map[string]func(*v1alpha1.BucketLifecycle) []string{
		indexBucket: bucketOf, indexBucketRef: bucketRefsOf, indexTierRef: tierRefsOf, indexStorageClass: storageClassesOf,
	} {
		b = b.WithIndex(&v1alpha1.BucketLifecycle{}, key, func(o client.Object) []string {
			return fn(o.(*v1alpha1.BucketLifecycle))
		})
	}
	return b.Build()
}

// condition returns condition ct of cr as "Status/Reason".
func condition(cr *v1alpha1.BucketLifecycle, ct xpv2.ConditionType) string {
	c := cr.GetCondition(ct)
	return string(c.Status) + "/" + string(c.Reason)
}

// statusText renders what a resource shows users besides its spec, to
// check for secret values (testenv.Shown).
func statusText(t *testing.T, cr client.Object) string { return testenv.Shown(t, cr) }

func ctx(t *testing.T) context.Context { return testenv.Context(t) }
