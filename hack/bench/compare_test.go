package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestQuantile(t *testing.T) {
	s := func(n ...int) []time.Duration {
		ds := make([]time.Duration, len(n))
		for i, x := range n {
			ds[i] = time.Duration(x) * time.Second
		}
		return ds
	}
	cases := map[string]struct {
		ds   []time.Duration
		q    float64
		want time.Duration
	}{
		"none":                     {q: 0.5, want: 0},
		"first":                    {ds: s(1, 2, 3), q: 0, want: time.Second},
		"median of odd":            {ds: s(1, 2, 3), q: 0.5, want: 2 * time.Second},
		"median of even rounds up": {ds: s(1, 2, 3, 4), q: 0.5, want: 3 * time.Second},
		"last":                     {ds: s(1, 2, 3, 4), q: 1, want: 4 * time.Second},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := quantile(tc.ds, tc.q); got != tc.want {
				t.Errorf("quantile(%v, %v) = %v, want %v", tc.ds, tc.q, got, tc.want)
			}
		})
	}
}

func TestValidatePeer(t *testing.T) {
	ok := flags{peer: "/bin/peer", peerCRDs: "/crds", window: time.Minute}
	cases := map[string]struct {
		change func(*flags)
		want   string // a part of the error, or "" for none
	}{
		"valid":             {change: func(*flags) {}},
		"no CRDs":           {change: func(f *flags) { f.peerCRDs = "" }, want: "-peer needs -peer-crds"},
		"with smoke":        {change: func(f *flags) { f.smoke = true }, want: "does not go with -floor or -smoke"},
		"with floor":        {change: func(f *flags) { f.floor = true }, want: "does not go with -floor or -smoke"},
		"no window":         {change: func(f *flags) { f.window = 0 }, want: "-window must be positive"},
		"negative existing": {change: func(f *flags) { f.existing = -1 }, want: "-existing must be 0 or more"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := ok
			tc.change(&f)
			err := f.validate(nil)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.want == "") != (err == nil) || !strings.Contains(got, tc.want) {
				t.Errorf("validate() = %q, want an error containing %q", got, tc.want)
			}
		})
	}
}

func TestPrintSideBySide(t *testing.T) {
	rs := []*sideResult{
		{name: "a", idleRSS: 40 << 20, peakRSS: 60 << 20, settledRSS: 50 << 20, cpu: 20 * time.Second, reconciles: 3000, requests: 4000, n: 2,
			causes: map[string]float64{"event": 2, "follow-up": 2, "poll": 2996}, api: map[string]float64{"GET": 10, "PATCH": 5},
			served: map[string]float64{"PUT buckets/status": 7, "GET secrets": 3},
			ready:  []time.Duration{time.Second, 30 * time.Second}},
		{name: "b", idleRSS: 40 << 20, peakRSS: 120 << 20, settledRSS: 100 << 20, cpu: 40 * time.Second, reconciles: 2000, requests: 3000, n: 2,
			api: map[string]float64{"PUT": 30}, ready: []time.Duration{2 * time.Second}},
	}
	var out bytes.Buffer
	printSideBySide(&out, rs)
	want := []string{
		"",
		"| | a | b | ratio |",
		"|---|---|---|---|",
		"| idle RSS | 40.0 MiB | 40.0 MiB | 1.00× |",
		"| peak RSS in the window | 60.0 MiB | 120.0 MiB | 0.50× |",
		"| settled RSS (end of the window) | 50.0 MiB | 100.0 MiB | 0.50× |",
		"| CPU-s, first create to end of the window | 20.0 | 40.0 | 0.50× |",
		"| controller-runtime reconciles in the window | 3000 | 2000 | 1.50× |",
		"| of which, by cause (rustfs_managed_reconciles_total, rustfs_deferred_reconciles_total) | event 2, follow-up 2, poll 2996 | not reported |  |",
		"| RustFS requests in the window | 4000 | 3000 | 1.33× |",
		"| API server requests in the window (rest_client_requests_total) | 15 | 30 | 0.50× |",
		"| of which, by method | GET 10, PATCH 5 | PUT 30 |  |",
		"| the API server's view, the benchmark's own requests included (apiserver_request_total) | GET secrets 3, PUT buckets/status 7 | not reported |  |",
		"| Buckets Ready in the window | 2 / 2 | 1 / 2 |  |",
		"| Ready first / median / last (s after the first create) | 1.0 / 30.0 / 30.0 | 2.0 / 2.0 / 2.0 | 15.00× |",
		"",
	}
	if diff := cmp.Diff(want, strings.Split(out.String(), "\n")); diff != "" {
		t.Errorf("printSideBySide(): -want +got:\n%s", diff)
	}
}

func TestServed(t *testing.T) {
	ss := samples{
		{name: "apiserver_request_total", labels: map[string]string{"verb": "PUT", "resource": "buckets", "subresource": "status", "code": "200"}, value: 5},
		{name: "apiserver_request_total", labels: map[string]string{"verb": "PUT", "resource": "buckets", "subresource": "status", "code": "409"}, value: 1},
		{name: "apiserver_request_total", labels: map[string]string{"verb": "GET", "resource": "secrets"}, value: 2},
		{name: "apiserver_request_total", labels: map[string]string{"verb": "WATCH", "resource": "buckets"}, value: 9},
		{name: "apiserver_request_duration_seconds_count", labels: map[string]string{"verb": "GET", "resource": "secrets"}, value: 4},
	}
	want := map[string]float64{"PUT buckets/status": 6, "GET secrets": 2}
	if diff := cmp.Diff(want, served(ss)); diff != "" {
		t.Errorf("served(): by verb and resource, watches left out: -want +got:\n%s", diff)
	}
}
