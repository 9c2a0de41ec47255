package bucket

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

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/notify/notifytest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Sentinel credentials of the provider's RustFS identity. Tests assert that
// they never appear in errors, status, annotations, events or the
// emulator's request log, and never print them.
const (
	adminAK = "AKSENTINEL4BUCKET"
	adminSK = "SKSENTINEL-bucket-secret-must-not-leak"
)

const (
	ns          = "team-a"
	bucketName  = "app-data"
	systemNS    = "crossplane-system"
	adminSecret = "rustfs-admin"
	isReady     = "True/Available"
)

func assertNoSecret(t *testing.T, where, s string) {
	t.Helper()
	for i, v := range []string{adminAK, adminSK} {
		if strings.Contains(s, v) {
			t.Errorf("%s contains secret value #%d", where, i)
		}
	}
}

type bucketModifier func(*v1alpha1.Bucket)

func withExternalName(n string) bucketModifier {
	return func(b *v1alpha1.Bucket) { meta.SetExternalName(b, n) }
}
func withObjectLock() bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ForProvider.ObjectLock = true }
}
func withRegion(r string) bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ForProvider.Region = r }
}
func withVersioning(v v1alpha1.VersioningStatus) bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ForProvider.Versioning = v }
}
func withProviderConfig(name string) bucketModifier {
	return func(b *v1alpha1.Bucket) {
		b.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: name}
	}
}

// bucket returns a Bucket named app-data whose external name is set, as
// the managed reconciler's initializer sets it.
func bucket(m ...bucketModifier) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{TypeMeta: metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: v1alpha1.BucketKind}}
	b.Namespace, b.Name, b.UID, b.Generation = ns, bucketName, types.UID("uid-"+bucketName), 1
	b.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
		xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}
	withProviderConfig("default")(b)
	withExternalName(bucketName)(b)
	for _, f := range m {
		f(b)
	}
	return b
}

func clusterConfig(name, endpoint, region string) []client.Object {
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: name}}
	pc.Spec.Endpoint, pc.Spec.Region = endpoint, region
	pc.Spec.Credentials.Source = xpv2.CredentialsSourceSecret
	pc.Spec.Credentials.SecretRef = xpv2.SecretReference{Namespace: systemNS, Name: adminSecret}
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: systemNS, Name: adminSecret},
		Data:       map[string][]byte{"accesskey": []byte(adminAK), "secretkey": []byte(adminSK)},
	}
	return []client.Object{pc, s}
}

func condition(b *v1alpha1.Bucket) string {
	c := b.GetCondition(xpv2.TypeReady)
	return string(c.Status) + "/" + string(c.Reason)
}

func ctx(t *testing.T) context.Context { return testenv.Context(t) }

// A harness is a RustFS emulator served over HTTP and a fake API server
// holding a ClusterProviderConfig (region pcRegion), its Secret and the
// Buckets.
type harness struct {
	t      *testing.T
	rfs    *rustfstest.Server
	kube   client.Client
	events notifytest.Recorder
}

func newHarness(t *testing.T, pcRegion string, opts ...rustfstest.Option) *harness {
	t.Helper()
	opts = append([]rustfstest.Option{rustfstest.WithRootCredentials(adminAK, adminSK)}, opts...)
	h := &harness{t: t, rfs: rustfstest.NewServer(opts...)}
	t.Cleanup(h.rfs.Close)
	s := kruntime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	h.kube = fake.NewClientBuilder().WithScheme(s).WithObjects(clusterConfig("default", h.rfs.URL(), pcRegion)...).
		WithStatusSubresource(&v1alpha1.Bucket{}).
		WithIndex(&v1alpha1.Bucket{}, custody.IndexExternalName, custody.IndexByExternalName).Build()
	return h
}

func (h *harness) connector() *connector {
	r := connection.NewResolver(h.kube, h.kube, resource.ModernTrackerFn(func(context.Context, resource.ModernManaged) error { return nil }))
	return &connector{kube: h.kube, uncached: h.kube, identify: custody.ByEndpoint, now: time.Now, newClient: newClient,
		gate: custody.NewGate(h.kube, r, custody.Namespaces{Reader: h.kube, Allowed: true}), record: &h.events}
}

func (h *harness) store(b *v1alpha1.Bucket) *v1alpha1.Bucket {
	h.t.Helper()
	if err := h.kube.Create(ctx(h.t), b); err != nil {
		h.t.Fatalf("cannot create Bucket: %v", err)
	}
	return h.fetch(b)
}

func (h *harness) fetch(b *v1alpha1.Bucket) *v1alpha1.Bucket {
	h.t.Helper()
	got := &v1alpha1.Bucket{}
	if err := h.kube.Get(ctx(h.t), client.ObjectKeyFromObject(b), got); err != nil {
		h.t.Fatalf("cannot get Bucket: %v", err)
	}
	return got
}

// edit changes the stored spec and bumps the generation, as the API
// server does.
func (h *harness) edit(b *v1alpha1.Bucket, fn bucketModifier) *v1alpha1.Bucket {
	h.t.Helper()
	got := h.fetch(b)
	fn(got)
	got.Generation++
	if err := h.kube.Update(ctx(h.t), got); err != nil {
		h.t.Fatal(err)
	}
	return h.fetch(got)
}

// reconcile drives one reconcile of the stored b the way the managed
// reconciler does (see the bucketlifecycle harness) and returns the stored
// result and the phase it ended in.
func (h *harness) reconcile(b *v1alpha1.Bucket) (*v1alpha1.Bucket, string, error) {
	h.t.Helper()
	b = h.fetch(b)
	e, err := h.connector().Connect(ctx(h.t), b)
	if err != nil {
		h.t.Fatalf("Connect: %v", err)
	}
	phase := "none"
	o, err := e.Observe(ctx(h.t), b)
	switch {
	case err != nil:
		phase = "observe"
	case !o.ResourceExists:
		_, err = e.Create(ctx(h.t), b)
		h.check(b, err)
		stored := h.fetch(b)
		stored.SetAnnotations(b.GetAnnotations())
		if uerr := h.kube.Update(ctx(h.t), stored); uerr != nil {
			h.t.Fatal(uerr)
		}
		return h.fetch(b), "create", err
	case !o.ResourceUpToDate:
		phase = "update"
		_, err = e.Update(ctx(h.t), b)
	}
	h.check(b, err)
	if serr := h.kube.Status().Update(ctx(h.t), b); serr != nil {
		h.t.Fatalf("cannot store status: %v", serr)
	}
	return h.fetch(b), phase, err
}

func (h *harness) converge(b *v1alpha1.Bucket, n int) *v1alpha1.Bucket {
	h.t.Helper()
	for range n {
		got, phase, err := h.reconcile(b)
		if err != nil {
			h.t.Fatalf("reconcile (%s): %v", phase, err)
		}
		if b = got; phase == "none" {
			return b
		}
	}
	h.t.Fatalf("no convergence after %d reconciles", n)
	return nil
}

func (h *harness) check(b *v1alpha1.Bucket, err error) {
	h.t.Helper()
	if err != nil {
		assertNoSecret(h.t, "error", err.Error())
	}
	out, jerr := json.Marshal(struct {
		S v1alpha1.BucketStatus
		A map[string]string
	}{b.Status, b.Annotations})
	if jerr != nil {
		h.t.Fatal(jerr)
	}
	assertNoSecret(h.t, "Bucket status and annotations", string(out))
	assertNoSecret(h.t, "emulator request log", fmt.Sprint(h.rfs.Requests()))
}
