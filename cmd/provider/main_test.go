package main

import (
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
)

// TestMain lets the test binary act as the provider binary, so that the
// help test runs the real flag parsing in a child process.
func TestMain(m *testing.M) {
	if os.Getenv("PROVIDER_RUSTFS_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestHelpListsEveryFlag(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--help")
	cmd.Env = append(os.Environ(), "PROVIDER_RUSTFS_RUN_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("--help: %v\n%s", err, out)
	}
	for _, flag := range []string{
		"--[no-]debug", "$DEBUG",
		"--[no-]leader-election", "$LEADER_ELECTION",
		"--sync=1h", "$SYNC_INTERVAL",
		"--poll=1m", "$POLL_INTERVAL",
		"--poll-jitter=", "$POLL_JITTER",
		"--max-reconcile-rate=20", "$MAX_RECONCILE_RATE",
		"--metrics-bind-address=", "$METRICS_BIND_ADDRESS",
		"--poll-state-metric=5s", "$POLL_STATE_METRIC",
		"--health-probe-bind-address=", "$HEALTH_PROBE_BIND_ADDRESS",
		"--tier-verify-interval=10m", "$TIER_VERIFY_INTERVAL",
		`--memory-limit="48Mi"`, "$MEMORY_LIMIT",
	} {
		if !strings.Contains(string(out), flag) {
			t.Errorf("--help does not list %q:\n%s", flag, out)
		}
	}
}

// TestBinaryHoldsNoTestCode checks that the provider binary, built with the
// Makefile's tags, links neither the RustFS emulator nor test-only libraries
// (the AWS SDK's S3 client is used only to check the emulator; the client
// signs with the SDK's signer), nor gRPC's request tracing pages, which
// -tags grpcnotrace leaves out (docs/performance.md, Binary).
func TestBinaryHoldsNoTestCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", buildTags(t), ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"/rustfstest", "github.com/aws/aws-sdk-go-v2/service/s3", "github.com/onsi/gomega", "sigs.k8s.io/controller-runtime/pkg/envtest", "/internal/testenv"} {
			if strings.Contains(pkg, banned) {
				t.Errorf("the provider binary depends on %s", pkg)
			}
		}
		switch pkg {
		case "testing", "net/http/httptest", "golang.org/x/net/trace", "html/template":
			t.Errorf("the provider binary depends on %s", pkg)
		}
	}
}

// wiredArgs sets every flag to a value other than its default.
var wiredArgs = []string{"--debug", "--no-leader-election", "--sync=2h", "--poll=3m", "--poll-jitter=7s",
	"--max-reconcile-rate=7", "--metrics-bind-address=:9090", "--health-probe-bind-address=:9091", "--naive-tier-list",
	"--tier-verify-interval=11m", "--poll-state-metric=13s", "--pprof-bind-address=:9092",
	"--memory-limit=96Mi"}

// TestFlagsReachSettings checks that every flag, set on the command line,
// reaches the setting it names: the manager's options, the controllers'
// options or the logger. A field of flags that no flag sets, or whose value
// goes nowhere, fails it.
func TestFlagsReachSettings(t *testing.T) {
	f := parse(wiredArgs)
	m := managerOptions(f)
	o := controllerOptions(f, logger(f.debug))
	limit, err := memoryLimit(f)
	if err != nil {
		t.Fatalf("memoryLimit(%v): %v", wiredArgs, err)
	}
	reached := map[string]struct{ got, want any }{
		"debug":            {got: ctrl.Log.V(1).Enabled(), want: true},
		"leaderElection":   {got: m.LeaderElection, want: false},
		"sync":             {got: *m.Cache.SyncPeriod, want: 2 * time.Hour},
		"poll":             {got: o.PollInterval, want: 3 * time.Minute},
		"pollJitter":       {got: o.PollJitter, want: 7 * time.Second},
		"maxReconcileRate": {got: o.MaxConcurrentReconciles, want: 7},
		"metricsAddr":      {got: m.Metrics.BindAddress, want: ":9090"},
		"healthAddr":       {got: m.HealthProbeBindAddress, want: ":9091"},
		"naiveTierList":    {got: o.NaiveTierList, want: true},
		"tierVerify":       {got: o.TierVerifyInterval, want: 11 * time.Minute},
		"pollStateMetric":  {got: o.MetricOptions.PollStateMetricInterval, want: 13 * time.Second},
		"pprofAddr":        {got: m.PprofBindAddress, want: ":9092"},
		"memoryLimit":      {got: limit, want: int64(96 << 20)},
	}
	v, defaults := reflect.ValueOf(f), reflect.ValueOf(parse(nil))
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if v.Field(i).Equal(defaults.Field(i)) {
			t.Errorf("flags.%s: no flag of %v sets it", name, wiredArgs)
		}
		r, ok := reached[name]
		if !ok {
			t.Errorf("flags.%s: the test does not know which setting it reaches; add it to the table", name)
			continue
		}
		if diff := cmp.Diff(r.want, r.got); diff != "" {
			t.Errorf("flags.%s does not reach its setting: -want +got:\n%s", name, diff)
		}
	}
}

// TestLeaderElectionOnByDefault checks that the provider, run without
// flags as the package's Deployment runs it, elects a leader, so that a
// second replica is a standby rather than a second writer.
func TestLeaderElectionOnByDefault(t *testing.T) {
	t.Setenv("LEADER_ELECTION", "")
	if !managerOptions(parse(nil)).LeaderElection {
		t.Error("managerOptions(parse(nil)).LeaderElection: want true, got false")
	}
}

func TestMemoryLimit(t *testing.T) {
	t.Setenv("MEMORY_LIMIT", "")
	cases := map[string]struct {
		reason  string
		args    []string
		want    int64
		wantErr bool
	}{
		"Default": {
			reason: "Without the flag the provider keeps a soft limit of 48 MiB.",
			want:   48 << 20,
		},
		"Quantity": {
			reason: "The flag takes a Kubernetes quantity.",
			args:   []string{"--memory-limit=1Gi"},
			want:   1 << 30,
		},
		"Off": {
			reason: "0 turns the limit off.",
			args:   []string{"--memory-limit=0"},
			want:   0,
		},
		"Negative": {
			reason:  "A negative limit is refused.",
			args:    []string{"--memory-limit=-1Mi"},
			wantErr: true,
		},
		"GoSyntax": {
			reason:  "GOMEMLIMIT's MiB is not a quantity.",
			args:    []string{"--memory-limit=48MiB"},
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := memoryLimit(parse(tc.args))
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nmemoryLimit(%v): want error %t, got %v", tc.reason, tc.args, tc.wantErr, err)
			}
			if got != tc.want {
				t.Errorf("%s\nmemoryLimit(%v): want %d, got %d", tc.reason, tc.args, tc.want, got)
			}
		})
	}
}

// TestDefaultRate checks what the provider run without flags gets from the
// default --max-reconcile-rate, as the README's "What the default rate
// means" states it: each controller runs up to 20 reconciles at once, and
// the API client sends at most 100 requests a second (burst 200).
func TestDefaultRate(t *testing.T) {
	t.Setenv("MAX_RECONCILE_RATE", "")
	f := parse(nil)
	cfg := ratelimiter.LimitRESTConfig(&rest.Config{}, f.maxReconcileRate)
	got := []any{f.maxReconcileRate, controllerOptions(f, logging.NewNopLogger()).MaxConcurrentReconciles, cfg.QPS, cfg.Burst}
	want := []any{20, 20, float32(100), 200}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rate, concurrency, API QPS and burst at the default flags: -want +got:\n%s", diff)
	}
}
