package e2e

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// Credentials of the tenancy scenarios. Namespace B's own RustFS admin user
// is valid; the made-up keys are not known to RustFS at all.
const (
	tenantAdminAK = "team-b-admin"
	tenantAdminSK = sentinel + "-team-b-admin"
	madeUpAK      = "made-up"
	madeUpSK      = sentinel + "-made-up"
	// polls is how many polls a scenario watches for writes that must not
	// happen.
	polls = 3
)

// A tenancy is a world whose namespace belongs to the platform team (it
// holds the ClusterProviderConfig's admin Secret), plus two tenant
// namespaces that use that ClusterProviderConfig: a, the platform's
// legitimate user, and b, a hostile one. Each tenant has a tier
// credentials Secret of its own (tierSecretName): a's holds the remote's
// root keys, b's the keys of the remote's second user, so the live tier
// shows whose credentials it holds. The local RustFS also knows namespace
// b's own admin user (tenantAdminAK).
type tenancy struct {
	*world
	a, b string
}

func newTenancy(t *testing.T, poll time.Duration, opts ...rustfstest.Option) *tenancy {
	t.Helper()
	w := newWorld(t, poll, append([]rustfstest.Option{rustfstest.WithUser(tenantAdminAK, tenantAdminSK, "admin:*", "s3:*")}, opts...)...)
	tn := &tenancy{world: w, a: w.addNamespace(), b: w.addNamespace()}
	w.create(secret(tn.a, tierSecretName, remoteAK, remoteSK), secret(tn.b, tierSecretName, rotatedAK, rotatedSK))
	return tn
}

// providerConfig creates, in ns, a ProviderConfig named name for endpoint
// whose Secret (name-admin, in ns) holds ak and sk.
func (tn *tenancy) providerConfig(ns, name, endpoint, ak, sk string) {
	tn.t.Helper()
	tn.create(secret(ns, name+"-admin", ak, sk), &v1alpha1.ProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.ProviderConfigSpec{
			EndpointSettings: v1alpha1.EndpointSettings{Endpoint: endpoint},
			Credentials: v1alpha1.LocalCredentials{Source: xpv2.CredentialsSourceSecret,
				SecretRef: xpv2.LocalSecretReference{Name: name + "-admin"}},
		},
	})
}

// localhostURL is the local RustFS's URL spelled with localhost instead of
// 127.0.0.1: the same server under another name.
func (tn *tenancy) localhostURL() string {
	_, port, err := net.SplitHostPort(tn.local.Addr())
	if err != nil {
		tn.t.Fatalf("cannot split %s: %v", tn.local.Addr(), err)
	}
	return "http://localhost:" + port
}

// tier returns a Tier in ns using the platform's ClusterProviderConfig,
// whose remote is the world's remote emulator.
func (tn *tenancy) tier(ns, name, tierName string, mods ...tierModifier) *v1alpha1.Tier {
	base := []tierModifier{withTierEndpoint(tn.remote.TierURL()), withTierProviderConfig(tn.pc)}
	return tier(ns, name, tierName, append(base, mods...)...)
}

func (tn *tenancy) bucket(ns, name string, mods ...bucketModifier) *v1alpha1.Bucket {
	return bucket(ns, name, append([]bucketModifier{withBucketProviderConfig(tn.pc)}, mods...)...)
}

func (tn *tenancy) lifecycle(ns, name, bucketName string, rules []v1alpha1.LifecycleRule, mods ...lifecycleModifier) *v1alpha1.BucketLifecycle {
	return lifecycle(ns, name, bucketName, rules, append([]lifecycleModifier{withLifecycleProviderConfig(tn.pc)}, mods...)...)
}

// withTierLocalProviderConfig makes a Tier use the namespaced
// ProviderConfig name of its own namespace.
func withTierLocalProviderConfig(name string) tierModifier {
	return func(t *v1alpha1.Tier) {
		t.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ProviderConfigKind, Name: name}
	}
}

func withTierBucket(b string) tierModifier {
	return func(t *v1alpha1.Tier) { t.Spec.ForProvider.Bucket = b }
}

func withExternalName(name string) bucketModifier {
	return func(b *v1alpha1.Bucket) { meta.SetExternalName(b, name) }
}

func withVersioning(v v1alpha1.VersioningStatus) bucketModifier {
	return func(b *v1alpha1.Bucket) { b.Spec.ForProvider.Versioning = v }
}

// createAfter creates objs once the clock is past the second in which
// every one of older was created. creationTimestamp has a resolution of a
// second, so objs are then strictly younger: ownership does not fall to a
// tie-break on namespace names, which are random.
func (w *world) createAfter(older []managedObject, objs ...managedObject) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		for _, o := range older {
			g.Expect(time.Now().After(o.GetCreationTimestamp().Add(time.Second))).To(gomega.BeTrue(), "clock past the creation of %s", o.GetName())
		}
	})
	for _, o := range objs {
		w.create(o)
	}
}

// waitReconciled waits until every object was reconciled at least once:
// it has a Synced condition with a status.
func (w *world) waitReconciled(objs ...managedObject) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			s := o.GetCondition(xpv2.TypeSynced).Status
			g.Expect(s == corev1.ConditionTrue || s == corev1.ConditionFalse).To(gomega.BeTrue(), "%T %s/%s reconciled", o, o.GetNamespace(), o.GetName())
		}
	})
}

// awaitPolls waits until the local RustFS has received n more requests to
// route (the reads the controllers' polls send), calling each, if set, on
// every check in between.
func (w *world) awaitPolls(route string, n int, each func()) {
	w.t.Helper()
	before := w.local.Count(route)
	w.eventually(func(g gomega.Gomega) {
		if each != nil {
			each()
		}
		g.Expect(w.local.Count(route)).To(gomega.BeNumerically(">=", before+n), "requests to %s, which polls send", route)
	})
}

// requestsSince returns the requests to the local RustFS after the first
// mark of its request log that match.
func (w *world) requestsSince(mark int, match func(rustfstest.RequestRecord) bool) []string {
	var out []string
	for _, r := range w.local.Requests()[mark:] {
		if match(r) {
			out = append(out, fmt.Sprintf("%s %s (%s, %d)", r.Method, r.Path, r.Route, r.Status))
		}
	}
	return out
}

// to matches requests to one of routes on bucket.
func to(bucket string, routes ...string) func(rustfstest.RequestRecord) bool {
	return func(r rustfstest.RequestRecord) bool {
		return strings.Trim(r.Path, "/") == bucket && slices.Contains(routes, r.Route)
	}
}
