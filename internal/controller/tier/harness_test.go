package tier

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/notify/notifytest"
)

// A harness is a local RustFS emulator (the provider's endpoint), a remote
// one (the tier's backend, probed on add), a fake API server holding the
// ClusterProviderConfig, Secrets and Tiers, and a connector wired to them
// exactly as Setup wires it, with a controllable clock.
type harness struct {
	t           *testing.T
	local       *rustfstest.Server
	remote      *rustfstest.Server
	kube        client.Client
	now         time.Time
	invalidated int
	verify      schedule
	stats       *statsView
	events      notifytest.Recorder
}

type harnessOption func(*harnessConfig)

type harnessConfig struct {
	local  []rustfstest.Option
	objs   []client.Object
	verify time.Duration
}

// withVerify verifies tiers every interval and reads shared tier stats,
// as Setup does; without it the harness verifies never and reads no stats,
// so request counts of other tests stay as they were.
func withVerify(interval time.Duration) harnessOption {
	return func(c *harnessConfig) { c.verify = interval }
}

func withLocal(o ...rustfstest.Option) harnessOption {
	return func(c *harnessConfig) { c.local = append(c.local, o...) }
}

func withObjects(o ...client.Object) harnessOption {
	return func(c *harnessConfig) { c.objs = append(c.objs, o...) }
}

// newHarness starts both emulators in mode. The remote accepts the tier's
// sentinel credentials, and the rotated ones, and has the tier's bucket; the fake API server has
// the default ClusterProviderConfig and the tier Secret.
func newHarness(t *testing.T, mode rustfstest.Mode, opts ...harnessOption) *harness {
	t.Helper()
	cfg := &harnessConfig{}
	for _, o := range opts {
		o(cfg)
	}
	h := &harness{t: t, now: t0, verify: schedule{interval: cfg.verify, start: t0}}
	if cfg.verify > 0 {
		h.stats = newStatsView(readStats(newClient), time.Minute, func() time.Time { return h.now })
	}
	h.remote = rustfstest.NewServer(rustfstest.WithMode(mode), rustfstest.WithRootCredentials(tierAK, tierSK),
		rustfstest.WithUser(rotatedAK, rotatedSK, "s3:*")) // a GA edit probes the remote with the new keys
	h.remote.CreateBucket(remoteBkt, false)
	local := append([]rustfstest.Option{rustfstest.WithMode(mode), rustfstest.WithRootCredentials(adminAK, adminSK)}, cfg.local...)
	h.local = rustfstest.NewServer(local...)
	t.Cleanup(func() { h.local.Close(); h.remote.Close() })
	objs := append(clusterConfig("default", h.local.URL()), tierSecret())
	h.kube = fakeKube(t, append(objs, cfg.objs...)...)
	return h
}

// connector returns a connector wired like Setup's.
func (h *harness) connector() *connector {
	r := connection.NewResolver(h.kube, h.kube, resource.ModernTrackerFn(func(context.Context, resource.ModernManaged) error { return nil }))
	gate := custody.NewGate(h.kube, r, custody.Namespaces{Reader: h.kube, Allowed: true})
	gate.Report = report
	return &connector{
		kube: h.kube, uncached: h.kube, gate: gate, identify: custody.ByEndpoint, newClient: newClient,
		tiers: invalidations{tierLister: perReconcile(listWith(newClient)), n: &h.invalidated},
		now:   func() time.Time { return h.now }, poll: time.Minute,
		verify: h.verify, statsView: h.stats, record: &h.events,
	}
}

// newClient returns a RustFS client for c with an identity cache of its
// own, so that no test learns another's identities.
func newClient(c rustfs.Config) (rustfs.TierAPI, error) {
	cl, err := rustfs.New(c)
	if err != nil {
		return nil, err
	}
	return cl, nil
}

// invalidations counts the invalidations of a tierLister in n.
type invalidations struct {
	tierLister
	n *int
}

func (i invalidations) Invalidate(c *connection.Connection) {
	*i.n++
	i.tierLister.Invalidate(c)
}

func (h *harness) connect(cr *v1alpha1.Tier) managed.TypedExternalClient[*v1alpha1.Tier] {
	h.t.Helper()
	e, err := h.connector().Connect(ctx(h.t), cr)
	if err != nil {
		h.t.Fatalf("Connect: %v", err)
	}
	return e
}

// store creates cr in the fake API server and returns the stored object.
func (h *harness) store(cr *v1alpha1.Tier) *v1alpha1.Tier {
	h.t.Helper()
	if err := h.kube.Create(ctx(h.t), cr); err != nil {
		h.t.Fatalf("cannot create Tier: %v", err)
	}
	return h.fetch(cr)
}

func (h *harness) fetch(cr *v1alpha1.Tier) *v1alpha1.Tier {
	h.t.Helper()
	got := &v1alpha1.Tier{}
	if err := h.kube.Get(ctx(h.t), client.ObjectKeyFromObject(cr), got); err != nil {
		h.t.Fatalf("cannot get Tier: %v", err)
	}
	return got
}

// observe runs Observe and checks its error and the Tier for secrets.
func (h *harness) observe(cr *v1alpha1.Tier) (managed.ExternalObservation, error) {
	h.t.Helper()
	o, err := h.connect(cr).Observe(ctx(h.t), cr)
	h.checkSecrets(cr, err)
	return o, err
}

// reconcile drives one reconcile the way the managed reconciler does:
// Observe, then Create or Update. Annotations set by Create are stored,
// as the reconciler's critical-annotation update stores them, and the
// status is stored last, as its status update at the end of every pass.
func (h *harness) reconcile(cr *v1alpha1.Tier) (string, error) {
	h.t.Helper()
	step, err := h.pass(cr)
	stored := h.fetch(cr)
	stored.Status = cr.Status
	if serr := h.kube.Status().Update(ctx(h.t), stored); serr != nil {
		h.t.Fatalf("cannot store the status: %v", serr)
	}
	cr.SetResourceVersion(stored.GetResourceVersion())
	return step, err
}

// pass runs Observe, then Create or Update, and returns the step taken.
func (h *harness) pass(cr *v1alpha1.Tier) (string, error) {
	h.t.Helper()
	e := h.connect(cr)
	o, err := e.Observe(ctx(h.t), cr)
	h.checkSecrets(cr, err)
	switch {
	case err != nil:
		return "observe", err
	case !o.ResourceExists:
		_, err = e.Create(ctx(h.t), cr)
		h.checkSecrets(cr, err)
		h.saveAnnotations(cr)
		return "create", err
	case !o.ResourceUpToDate:
		_, err = e.Update(ctx(h.t), cr)
		h.checkSecrets(cr, err)
		return "update", err
	}
	return "none", nil
}

// expect reconciles cr and fails unless it took step ("create", "update",
// "none", or "observe" when Observe failed) and reported reason ("" for
// success, "transient" for an error that is not a block).
func (h *harness) expect(cr *v1alpha1.Tier, step, reason string) {
	h.t.Helper()
	gotStep, err := h.reconcile(cr)
	gotReason := reasonOf(err)
	if err != nil && gotReason == "" {
		gotReason = "transient"
	}
	if gotStep != step || gotReason != reason {
		h.t.Fatalf("reconcile: step %q, reason %q (%v); want step %q, reason %q", gotStep, gotReason, err, step, reason)
	}
}

// expectCounts fails unless the local emulator saw exactly these requests
// per route since its counters were last reset.
func (h *harness) expectCounts(want map[string]int) {
	h.t.Helper()
	if diff := cmp.Diff(want, h.local.Counts(), cmpopts.EquateEmpty()); diff != "" {
		h.t.Errorf("RustFS requests per route: -want +got:\n%s", diff)
	}
}

func (h *harness) saveAnnotations(cr *v1alpha1.Tier) {
	h.t.Helper()
	stored := h.fetch(cr)
	stored.SetAnnotations(cr.GetAnnotations())
	if err := h.kube.Update(ctx(h.t), stored); err != nil {
		h.t.Fatalf("cannot store annotations: %v", err)
	}
	cr.SetResourceVersion(stored.GetResourceVersion())
}

func (h *harness) checkSecrets(cr *v1alpha1.Tier, err error) {
	h.t.Helper()
	if err != nil {
		assertNoSecret(h.t, "error", err.Error())
	}
	assertNoSecret(h.t, "Tier status and annotations", statusText(h.t, cr))
	assertNoSecret(h.t, "emulator request log", fmt.Sprint(h.local.Requests(), h.remote.Requests()))
}

// rotate replaces the tier Secret's data, which changes its resourceVersion.
func (h *harness) rotate(ak, sk string) {
	h.t.Helper()
	s := tierSecret()
	if err := h.kube.Get(ctx(h.t), client.ObjectKeyFromObject(s), s); err != nil {
		h.t.Fatal(err)
	}
	s.Data = map[string][]byte{"accesskey": []byte(ak), "secretkey": []byte(sk)}
	if err := h.kube.Update(ctx(h.t), s); err != nil {
		h.t.Fatal(err)
	}
}

// liveTier returns the tier the local emulator stores, with keys labelled.
func (h *harness) liveTier(name string) (rustfstest.TierRecord, bool) {
	r, ok := h.local.Tier(name)
	return printable(r), ok
}

// blocked returns the blockedError in err, or nil.
func blocked(err error) *blockedError {
	var b *blockedError
	if errors.As(err, &b) {
		return b
	}
	return nil
}

// reasonOf returns the reason of a blockedError, or "".
func reasonOf(err error) string {
	if b := blocked(err); b != nil {
		return string(b.Reason)
	}
	return ""
}

// modes are both emulated RustFS releases.
var modes = []rustfstest.Mode{rustfstest.ModeRC, rustfstest.ModeGA}
