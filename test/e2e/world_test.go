package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	bucketcontroller "github.com/crossplane-contrib/provider-rustfs/internal/controller/bucket"
	lifecyclecontroller "github.com/crossplane-contrib/provider-rustfs/internal/controller/bucketlifecycle"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/config"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	tiercontroller "github.com/crossplane-contrib/provider-rustfs/internal/controller/tier"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Credentials of the emulators. Every secret key contains sentinel, which
// must never appear in status, events or logs.
const (
	sentinel   = "SENTINEL-e2e-secret"
	localAK    = "local-admin"
	localSK    = sentinel + "-local"
	remoteAK   = "remote-admin"
	remoteSK   = sentinel + "-remote"
	rotatedAK  = "remote-rotated"
	rotatedSK  = sentinel + "-rotated"
	oldTierAK  = "out-of-band"
	oldTierSK  = sentinel + "-out-of-band"
	eventually = 30 * time.Second
	shortPoll  = time.Second
)

// A world is what one scenario runs against: a namespace of its own, a
// "local" RustFS the provider manages, a "remote" RustFS holding the tier
// bucket, a ClusterProviderConfig for the local one with its admin Secret,
// a tier credentials Secret for the remote one, and the provider's
// controllers, set up as the binary sets them up.
type world struct {
	t      *testing.T
	g      *gomega.WithT
	ctx    context.Context
	ns     string
	pc     string
	local  *rustfstest.Server
	remote *rustfstest.Server
	log    *testenv.LogBuffer
	// api records the requests the controllers send to the API server.
	api  *testenv.RequestLog
	poll time.Duration
	// verify is the controllers' tier verify interval (0 disables verifies).
	verify time.Duration
	// others are further namespaces of the scenario (see addNamespace).
	others []string
}

// newWorld starts a world whose controllers poll every poll; the local
// emulator gets opts. Scenarios about watches use an hour, so that only a
// watch can explain a reaction; scenarios about later reconciles use a
// short poll, which also refreshes the shared tier list that often.
func newWorld(t *testing.T, poll time.Duration, opts ...rustfstest.Option) *world {
	t.Helper()
	w := newStoppedWorld(t, poll, opts...)
	t.Cleanup(w.startProvider())
	t.Cleanup(w.finish)
	return w
}

// newStoppedWorld is newWorld without the provider: the caller starts it
// (startProvider) and registers w.finish to run while it still runs.
func newStoppedWorld(t *testing.T, poll time.Duration, opts ...rustfstest.Option) *world {
	t.Helper()
	w := &world{t: t, g: gomega.NewWithT(t), ctx: context.Background(), ns: newNamespace(t), log: &testenv.LogBuffer{}, api: &testenv.RequestLog{}, poll: poll}
	w.pc = w.ns
	w.remote = rustfstest.NewServer(rustfstest.WithRootCredentials(remoteAK, remoteSK),
		rustfstest.WithUser(rotatedAK, rotatedSK, "s3:*"))
	t.Cleanup(w.remote.Close)
	w.remote.CreateBucket(remoteBucket, false)
	w.local = rustfstest.NewServer(append([]rustfstest.Option{rustfstest.WithRootCredentials(localAK, localSK)}, opts...)...)
	t.Cleanup(w.local.Close)
	w.create(secret(w.ns, adminSecretName, localAK, localSK))
	w.create(secret(w.ns, tierSecretName, remoteAK, remoteSK))
	w.create(&v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: w.pc},
		Spec: v1alpha1.ClusterProviderConfigSpec{
			EndpointSettings: v1alpha1.EndpointSettings{Endpoint: w.local.URL()},
			Credentials: v1alpha1.ClusterCredentials{Source: xpv2.CredentialsSourceSecret,
				SecretRef: xpv2.SecretReference{Namespace: w.ns, Name: adminSecretName}},
		},
	})
	return w
}

// startProvider starts the provider's controllers, set up as the binary
// sets them up, and returns a function that stops them.
func (w *world) startProvider() func() {
	w.t.Helper()
	_, stop := env.StartManagerStoppable(w.t, w.log, w.api, options.ControllerSettings{Poll: w.poll, TierVerifyInterval: w.verify,
		StateMetricInterval: time.Second},
		config.Setup, tiercontroller.Setup, bucketcontroller.Setup, lifecyclecontroller.Setup)
	return stop
}

func secret(ns, name, ak, sk string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		StringData: map[string]string{v1alpha1.DefaultAccessKeyKey: ak, v1alpha1.DefaultSecretKeyKey: sk},
	}
}

// create creates o, failing the test on error.
func (w *world) create(objs ...client.Object) {
	w.t.Helper()
	for _, o := range objs {
		if err := env.Client.Create(w.ctx, o); err != nil {
			w.t.Fatalf("cannot create %T %s: %v", o, o.GetName(), err)
		}
	}
}

// tier returns a Tier of the world's namespace and ProviderConfig whose
// remote is the world's remote emulator.
func (w *world) tier(name, tierName string, mods ...tierModifier) *v1alpha1.Tier {
	base := []tierModifier{withTierEndpoint(w.remote.TierURL()), withTierProviderConfig(w.pc)}
	return tier(w.ns, name, tierName, append(base, mods...)...)
}

func (w *world) bucket(name string, mods ...bucketModifier) *v1alpha1.Bucket {
	return bucket(w.ns, name, append([]bucketModifier{withBucketProviderConfig(w.pc)}, mods...)...)
}

func (w *world) lifecycle(name, bucketName string, rules []v1alpha1.LifecycleRule, mods ...lifecycleModifier) *v1alpha1.BucketLifecycle {
	return lifecycle(w.ns, name, bucketName, rules, append([]lifecycleModifier{withLifecycleProviderConfig(w.pc)}, mods...)...)
}

// seedTier registers a tier in the local RustFS out of band, as
// `rc ilm tier add` would, with credentials the provider does not know.
func (w *world) seedTier(name, prefix string) {
	w.local.SeedTier(rustfstest.TierRecord{
		Type: "rustfs", Name: name, Endpoint: w.remote.TierURL(), Bucket: remoteBucket, Prefix: prefix,
		AccessKey: oldTierAK, SecretKey: oldTierSK,
	})
}

// addNamespace creates another namespace for the scenario, whose managed
// resources finish deletes and checks for secret values like the world's.
func (w *world) addNamespace() string {
	w.t.Helper()
	ns := newNamespace(w.t)
	w.others = append(w.others, ns)
	return ns
}

// namespaces returns the world's namespace and those added to it.
func (w *world) namespaces() []string { return append([]string{w.ns}, w.others...) }

// newNamespace creates a namespace for one test. envtest runs no namespace
// controller, so it is never removed; names are generated.
func newNamespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "e2e-"}}
	if err := env.Client.Create(context.Background(), ns); err != nil {
		t.Fatalf("cannot create namespace: %v", err)
	}
	return ns.Name
}

// redact hides the sentinel in text printed by a failing test.
func redact(s string) string { return strings.ReplaceAll(s, sentinel, "REDACTED") }
