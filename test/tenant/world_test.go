package tenant

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucket"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucketaccess"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/bucketlifecycle"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/config"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/tier"
	fntenant "github.com/crossplane-contrib/provider-rustfs/internal/function/tenant"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Credentials of the emulators. Every secret key contains sentinel, which
// must never appear in status, events, logs or render output.
const (
	sentinel       = "SENTINEL-tenant-secret"
	localAK        = "local-admin"
	localSK        = sentinel + "-local"
	remoteAK       = "remote-admin"
	remoteSK       = sentinel + "-remote"
	adminNamespace = "crossplane-system"
	adminSecret    = "rustfs-admin"
	eventually     = 60 * time.Second
)

// fieldManager is the field manager Crossplane applies composed resources
// with.
const fieldManager = "apiextensions.crossplane.io/composed"

// A world is what one Tenant runs against: a "local" RustFS the provider
// manages, a "remote" RustFS holding the tier buckets, a
// ClusterProviderConfig pc for the local one, and the provider's
// controllers, set up as the binary sets them up, polling hourly.
type world struct {
	t      *testing.T
	g      *gomega.WithT
	ctx    context.Context
	pc     string
	local  *rustfstest.Server
	remote *rustfstest.Server
	log    *testenv.LogBuffer
}

// newWorld starts a world whose ClusterProviderConfig is called pc.
func newWorld(t *testing.T, pc string) *world {
	t.Helper()
	w := &world{t: t, g: gomega.NewWithT(t), ctx: context.Background(), pc: pc, log: &testenv.LogBuffer{}}
	w.remote = rustfstest.NewServer(rustfstest.WithRootCredentials(remoteAK, remoteSK))
	t.Cleanup(w.remote.Close)
	w.local = rustfstest.NewServer(rustfstest.WithRootCredentials(localAK, localSK))
	t.Cleanup(w.local.Close)
	w.ensure(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: adminNamespace}})
	w.ensure(secret(adminNamespace, adminSecret, localAK, localSK))
	w.ensure(&v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: pc},
		Spec: v1alpha1.ClusterProviderConfigSpec{
			EndpointSettings: v1alpha1.EndpointSettings{Endpoint: w.local.URL()},
			Credentials: v1alpha1.ClusterCredentials{Source: xpv2.CredentialsSourceSecret,
				SecretRef: xpv2.SecretReference{Namespace: adminNamespace, Name: adminSecret}},
		},
	})
	env.StartManagerLogging(t, w.log, options.ControllerSettings{Poll: time.Hour},
		config.Setup, tier.Setup, bucket.Setup, bucketlifecycle.Setup, bucketaccess.Setup)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("controller log (secret values redacted):\n%s", redact(w.log.String()))
		}
	})
	return w
}

func secret(ns, name, ak, sk string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		StringData: map[string]string{v1alpha1.DefaultAccessKeyKey: ak, v1alpha1.DefaultSecretKeyKey: sk},
	}
}

// ensure creates o, or updates it to o if it exists: a test that runs
// again (go test -count) finds the objects of its last run, pointing at
// emulators that are gone.
func (w *world) ensure(o client.Object) {
	w.t.Helper()
	err := env.Client.Create(w.ctx, o)
	if apierrors.IsAlreadyExists(err) {
		cur, _ := o.DeepCopyObject().(client.Object)
		if err = env.Client.Get(w.ctx, client.ObjectKeyFromObject(o), cur); err == nil {
			o.SetResourceVersion(cur.GetResourceVersion())
			err = env.Client.Update(w.ctx, o)
		}
	}
	if err != nil {
		w.t.Fatalf("cannot create or update %T %s: %v", o, o.GetName(), err)
	}
}

// prepare creates what a Tenant's composed resources need and the Tenant
// does not declare: its namespace, its tiers' credentials Secrets (holding
// the remote's keys) and the tier buckets on the remote.
func (w *world) prepare(s fntenant.TenantSpec, ns string) {
	w.t.Helper()
	w.ensure(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	for _, tr := range s.Tiers {
		w.ensure(secret(ns, tr.CredsSecret.Name, remoteAK, remoteSK))
		w.remote.CreateBucket(tr.Bucket, false)
	}
}

// apply server-side applies newly composed resources as Crossplane does,
// and deletes them when the test ends.
func (w *world) apply(objs ...*unstructured.Unstructured) {
	w.t.Helper()
	w.reapply(objs...)
	w.t.Cleanup(func() { w.remove(objs...) })
}

// reapply server-side applies composed resources as Crossplane does.
func (w *world) reapply(objs ...*unstructured.Unstructured) {
	w.t.Helper()
	for _, o := range objs {
		u := o.DeepCopy()
		if err := env.Client.Apply(w.ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(fieldManager), client.ForceOwnership); err != nil {
			w.t.Fatalf("cannot apply %s %s: %v", o.GetKind(), o.GetName(), err)
		}
	}
}

// live returns the current state of objs in the API server, without
// managed fields, as Crossplane observes composed resources.
func (w *world) live(g gomega.Gomega, objs ...*unstructured.Unstructured) unstructuredList {
	out := make(unstructuredList, 0, len(objs))
	for _, o := range objs {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(o.GroupVersionKind())
		g.Expect(env.Client.Get(w.ctx, client.ObjectKeyFromObject(o), u)).To(gomega.Succeed())
		u.SetManagedFields(nil)
		out = append(out, u)
	}
	return out
}

// waitFor waits until every live object passes check, then returns them.
func (w *world) waitFor(check func(g gomega.Gomega, u *unstructured.Unstructured), objs ...*unstructured.Unstructured) unstructuredList {
	w.t.Helper()
	var out unstructuredList
	w.g.Eventually(func(g gomega.Gomega) {
		out = w.live(g, objs...)
		for _, u := range out {
			check(g, u)
		}
	}).WithTimeout(eventually).WithPolling(100 * time.Millisecond).Should(gomega.Succeed())
	return out
}

// isReady checks that a managed resource is Ready and Synced.
func isReady(g gomega.Gomega, u *unstructured.Unstructured) {
	c := conditions(u)
	for _, ct := range []xpv2.ConditionType{xpv2.TypeReady, xpv2.TypeSynced} {
		got := c.GetCondition(ct)
		g.Expect(got.Status).To(gomega.Equal(corev1.ConditionTrue), "%s of %s %s: %s %s", ct, u.GetKind(), u.GetName(), got.Reason, redact(got.Message))
	}
}

// remove deletes objs and waits until their finalizers are gone, while the
// controllers still run, so that no later test's controllers see them.
func (w *world) remove(objs ...*unstructured.Unstructured) {
	w.checkNoSecretLeaks(objs...)
	for _, o := range objs {
		if err := env.Client.Delete(w.ctx, o.DeepCopy()); err != nil && !apierrors.IsNotFound(err) {
			w.t.Errorf("cannot delete %s %s: %v", o.GetKind(), o.GetName(), err)
		}
	}
	w.g.Eventually(func(g gomega.Gomega) {
		for _, o := range objs {
			err := env.Client.Get(w.ctx, client.ObjectKeyFromObject(o), o.DeepCopy())
			g.Expect(apierrors.IsNotFound(err)).To(gomega.BeTrue(), "%s %s still exists", o.GetKind(), o.GetName())
		}
	}).WithTimeout(eventually).Should(gomega.Succeed())
}

// checkNoSecretLeaks fails the test if a secret key of the emulators
// appears in a live managed resource, an event of its namespace, the
// controllers' log or the function's output.
func (w *world) checkNoSecretLeaks(objs ...*unstructured.Unstructured) {
	var g gomega.Gomega = gomega.NewWithT(w.t)
	b, _ := json.Marshal(w.live(g, objs...))
	if strings.Contains(string(b), sentinel) {
		w.t.Error("a secret value appears in a composed resource")
	}
	for _, ns := range namespacesOf(objs) {
		events := &corev1.EventList{}
		if err := env.Client.List(w.ctx, events, client.InNamespace(ns)); err != nil {
			w.t.Errorf("cannot list events: %v", err)
		}
		if b, _ := json.Marshal(events); strings.Contains(string(b), sentinel) {
			w.t.Errorf("a secret value appears in an event of namespace %s", ns)
		}
	}
	if strings.Contains(w.log.String(), sentinel) || strings.Contains(xp.fnLog.String(), sentinel) {
		w.t.Error("a secret value appears in the controllers' log or the function's output")
	}
}

func namespacesOf(objs unstructuredList) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range objs {
		if ns := o.GetNamespace(); !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	return out
}

// client returns a RustFS client for the local emulator, as `rc admin`
// would use it.
func (w *world) client() *rustfs.Client {
	return testenv.RustFSClient(w.t, rustfs.Config{Endpoint: w.local.URL(), AccessKey: localAK, SecretKey: localSK})
}

// redact hides the sentinel in text printed by a failing test.
func redact(s string) string { return strings.ReplaceAll(s, sentinel, "REDACTED") }
