package tier

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/config"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// An itest is one integration test's world: both emulators, a namespace
// with the tier Secret, a ClusterProviderConfig of its own, and a manager
// configured like the binary with the Tier controller logging to a buffer.
type itest struct {
	t      *testing.T
	g      gomega.Gomega
	ns     string
	pc     string
	local  *rustfstest.Server
	remote *rustfstest.Server
	logs   *testenv.LogBuffer
	kube   client.Client
	mgr    ctrl.Manager
}

// A requestLog records the API server requests a manager makes.
type requestLog struct {
	mu   sync.Mutex
	reqs []string // "METHOD path?query accept"
}

func (l *requestLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		l.mu.Lock()
		l.reqs = append(l.reqs, fmt.Sprintf("%s %s?%s %s", r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept")))
		l.mu.Unlock()
		return rt.RoundTrip(r)
	})
}

func (l *requestLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reqs...)
}

// runs numbers the integration tests of this process, so that repeated
// runs (-count) against the same API server never share objects.
var runs atomic.Int64

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// newITest starts everything for a test; name prefixes its namespace and
// ClusterProviderConfig, which are unique per run. log, if not nil, records
// the manager's API server requests.
func newITest(t *testing.T, name string, log *requestLog) *itest {
	t.Helper()
	testenv.Skip(t)
	name = fmt.Sprintf("%s-%d", name, runs.Add(1))
	it := &itest{t: t, g: gomega.NewWithT(t), ns: name, pc: name, kube: env.Client, logs: &testenv.LogBuffer{}}
	it.remote = rustfstest.NewServer(rustfstest.WithRootCredentials(tierAK, tierSK), rustfstest.WithUser(rotatedAK, rotatedSK, "s3:*"))
	it.remote.CreateBucket(remoteBkt, false)
	it.local = rustfstest.NewServer(rustfstest.WithRootCredentials(adminAK, adminSK))
	t.Cleanup(func() { it.local.Close(); it.remote.Close() })

	pc := clusterConfig(name, it.local.URL())
	pc[1].SetName(name + "-admin")
	pc[0].(*v1alpha1.ClusterProviderConfig).Spec.Credentials.SecretRef.Name = name + "-admin"
	for _, o := range []client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: systemNS}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, pc[0], pc[1],
		secret(name, secretName, map[string]string{"accesskey": tierAK, "secretkey": tierSK})} {
		if err := env.Client.Create(ctx(t), o); err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatalf("cannot create %T %s: %v", o, o.GetName(), err)
		}
	}

	e := *env
	if log != nil {
		e.Config = rest.CopyConfig(env.Config)
		e.Config.Wrap(log.wrap)
	}
	withLogs := func(mgr ctrl.Manager, o options.Options) error {
		o.Logger = debugLogger(it.logs)
		return Setup(mgr, o)
	}
	it.mgr = e.StartManager(t, options.ControllerSettings{Poll: time.Hour}, withLogs, config.Setup)
	return it
}

// tier returns a Tier in the test's namespace using its ProviderConfig.
func (it *itest) tier(name string, m ...tierModifier) *v1alpha1.Tier {
	cr := tier(it.remote.TierURL(), append([]tierModifier{withMeta(it.ns, name, 0)}, m...)...)
	cr.UID, cr.CreationTimestamp, cr.Generation = "", metav1.Time{}, 0
	cr.Spec.ProviderConfigReference.Name = it.pc
	cr.Spec.ManagementPolicies = nil // the CRD's Retain-only default applies
	return cr
}

func (it *itest) create(o client.Object) {
	it.t.Helper()
	if err := it.kube.Create(ctx(it.t), o); err != nil {
		it.t.Fatalf("cannot create %s: %v", o.GetName(), err)
	}
}

// waitFor waits up to timeout until the Tier's conditions are as wanted,
// then returns it.
func (it *itest) waitFor(cr *v1alpha1.Tier, timeout time.Duration, want map[xpv2.ConditionType]string) *v1alpha1.Tier {
	it.t.Helper()
	got := &v1alpha1.Tier{}
	it.g.Eventually(func(g gomega.Gomega) {
		g.Expect(it.kube.Get(ctx(it.t), client.ObjectKeyFromObject(cr), got)).To(gomega.Succeed())
		for ct, w := range want {
			g.Expect(get(got, ct)).To(gomega.Equal(w), "condition %s", ct)
		}
	}).WithTimeout(timeout).WithPolling(50 * time.Millisecond).Should(gomega.Succeed())
	return got
}

// checkNoSecrets asserts that no sentinel appears in the Tier controller's
// logs, the namespace's events, the Tier or the emulators' request logs,
// and that there were logs and events to check.
func (it *itest) checkNoSecrets(cr *v1alpha1.Tier) {
	it.t.Helper()
	assertNoSecret(it.t, "controller logs", it.logs.String())
	evs := &corev1.EventList{}
	if err := it.kube.List(ctx(it.t), evs, client.InNamespace(it.ns)); err != nil {
		it.t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range evs.Items {
		fmt.Fprintln(&b, e.Reason, e.Message, e.Annotations)
	}
	assertNoSecret(it.t, "events", b.String())
	assertNoSecret(it.t, "Tier", statusText(it.t, cr))
	assertNoSecret(it.t, "emulator request logs", fmt.Sprint(it.local.Requests(), it.remote.Requests()))
	if it.logs.String() == "" || len(evs.Items) == 0 {
		it.t.Errorf("%d log bytes and %d events: nothing to check for secrets", len(it.logs.String()), len(evs.Items))
	}
}
