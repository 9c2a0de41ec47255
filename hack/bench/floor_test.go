package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestValidate(t *testing.T) {
	type args struct {
		f   flags
		set []string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   string // the start of the error; empty for none
	}{
		"Provider":           {reason: "Without -floor every combination is left as before.", args: args{f: flags{smoke: true, newBuckets: 5, modes: "naive"}, set: []string{"smoke", "new", "modes"}}},
		"Floor":              {reason: "-floor alone is valid.", args: args{f: flags{floor: true, newBuckets: -1, modes: "shared,naive"}}},
		"FloorSmoke":         {reason: "The smoke test bounds the provider's requests.", args: args{f: flags{floor: true, smoke: true}, set: []string{"smoke"}}, want: "-floor does not go with -smoke"},
		"FloorNewBuckets":    {reason: "New Buckets need the provider to become Ready.", args: args{f: flags{floor: true, newBuckets: 1000}, set: []string{"new"}}, want: "-floor does not go with -new"},
		"FloorNoNewBuckets":  {reason: "-new 0 asks for what -floor does anyway.", args: args{f: flags{floor: true, newBuckets: 0}, set: []string{"new"}}},
		"FloorNaive":         {reason: "The floor has no tier list mode.", args: args{f: flags{floor: true, modes: "naive"}, set: []string{"modes"}}, want: "-floor does not go with -modes"},
		"FloorSharedMode":    {reason: "-modes shared, as in the provider's command, is the floor's cache settings.", args: args{f: flags{floor: true, modes: "shared"}, set: []string{"modes"}}},
		"FloorDefaultModes":  {reason: "The default modes were not asked for.", args: args{f: flags{floor: true, modes: "shared,naive"}}},
		"FloorProviderEnv":   {reason: "The environment reaches the floor program too (MEMORY_LIMIT=0).", args: args{f: flags{floor: true, providerEnv: []string{"MEMORY_LIMIT=0"}}, set: []string{"provider-env"}}},
		"FloorSmokeAndModes": {reason: "The first conflict is reported.", args: args{f: flags{floor: true, smoke: true, modes: "naive"}, set: []string{"smoke", "modes"}}, want: "-floor does not go with -smoke"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			set := map[string]bool{}
			for _, s := range tc.args.set {
				set[s] = true
			}
			got := ""
			if err := tc.args.f.validate(set); err != nil {
				got = err.Error()
			}
			if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
				t.Errorf("%s\nvalidate: got %q, want an error starting %q", tc.reason, got, tc.want)
			}
		})
	}
}

func TestArgs(t *testing.T) {
	type args struct {
		f              flags
		naive          bool
		metrics, pprof string
	}
	cases := map[string]struct {
		reason string
		args   args
		binary string
		want   []string
	}{
		"Provider": {
			reason: "The provider runs out of cluster, without leader election, with the benchmark's settings.",
			args:   args{f: flags{root: "/r", poll: time.Minute, rate: 20, verify: 10 * time.Minute}, metrics: "127.0.0.1:1"},
			binary: "/r/bin/provider",
			want: []string{"--no-leader-election", "--poll=1m0s", "--max-reconcile-rate=20", "--metrics-bind-address=127.0.0.1:1",
				"--health-probe-bind-address=0", "--tier-verify-interval=10m0s"},
		},
		"ProviderNaiveProfiled": {
			reason: "The naive mode and -pprof add their flags.",
			args:   args{f: flags{root: "/r", poll: time.Minute, rate: 20, verify: time.Minute}, naive: true, metrics: "m", pprof: "p"},
			binary: "/r/bin/provider",
			want: []string{"--no-leader-election", "--poll=1m0s", "--max-reconcile-rate=20", "--metrics-bind-address=m",
				"--health-probe-bind-address=0", "--tier-verify-interval=1m0s", "--naive-tier-list", "--pprof-bind-address=p"},
		},
		"Floor": {
			reason: "The floor program takes the flags that shape what the framework holds, and none of RustFS.",
			args:   args{f: flags{root: "/r", floor: true, poll: 2 * time.Minute, rate: 30, verify: time.Minute}, metrics: "m", pprof: "p"},
			binary: "/r/bin/floor",
			want:   []string{"--poll=2m0s", "--max-reconcile-rate=30", "--metrics-bind-address=m", "--health-probe-bind-address=0", "--pprof-bind-address=p"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.args.f.binary(); got != tc.binary {
				t.Errorf("%s\nbinary: got %q, want %q", tc.reason, got, tc.binary)
			}
			if diff := cmp.Diff(tc.want, tc.args.f.args(tc.args.naive, tc.args.metrics, tc.args.pprof)); diff != "" {
				t.Errorf("%s\nargs: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// Every row a floor run reports exists in the full report, so that a
// renamed row cannot drop out of the floor's report unnoticed.
func TestFloorLinesExist(t *testing.T) {
	names := map[string]bool{}
	for _, l := range lines(false) {
		names[l.name] = true
	}
	for name := range floorLines {
		if !names[name] {
			t.Errorf("floorLines names %q, which the report does not have", name)
		}
	}
	if got, want := len(lines(true)), len(floorLines); got != want {
		t.Errorf("a floor report has %d rows, want the %d of floorLines", got, want)
	}
}

func TestReportLabelsAFloorRun(t *testing.T) {
	r := fixture(withMode(floorMode), func(r *result) {
		r.binary = 43692194
		r.sizes = map[string]objectSize{"Tier": {count: 2, bytes: 4000}, "ProviderConfigUsage": {count: 6, bytes: 4500}}
		r.watches = map[string]float64{"tiers": 2, "secrets": 1, "buckets": 0}
		r.steady = nil
	})
	var b bytes.Buffer
	printReport(&b, []*result{r})
	for _, want := range []string{
		"mode floor", "RSS peak of the run (VmHWM)", "Go heap alloc / inuse at the end", "binary on disk  ", "43692194 B",
		"Tier 2 x 2000 B, Bucket 0 x 0 B, BucketLifecycle 0 x 0 B, ProviderConfigUsage 6 x 750 B, CustodyRecord 0 x 0 B; 0.0 MiB in all",
		"secrets 1, tiers 2\n", "RustFS requests in the window", "none",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the floor report lacks %q:\n%s", want, b.String())
		}
	}
	for _, unwanted := range []string{"tier lists", "time until all Ready", "reconciles reaching the managed reconciler", "burst", "naive/shared"} {
		if strings.Contains(b.String(), unwanted) {
			t.Errorf("the floor report has the provider's row %q:\n%s", unwanted, b.String())
		}
	}
}

func TestReportOfTheProviderHasTheFloorsComparisons(t *testing.T) {
	var b bytes.Buffer
	printReport(&b, []*result{fixture(func(r *result) { r.binary = 45801634 })})
	for _, want := range []string{"mode shared", "time until all Ready", "binary on disk", "45801634 B", "not measured"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}
