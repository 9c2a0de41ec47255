package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseStatus(t *testing.T) {
	status := "Name:\tprovider\nVmPeak:\t 1327228 kB\nVmHWM:\t   61720 kB\nVmRSS:\t   58112 kB\nRssAnon:\t   31000 kB\nRssFile:\t   27112 kB\nThreads:\t12\n"
	want := procStats{rss: 58112 * 1024, anon: 31000 * 1024, file: 27112 * 1024, peak: 61720 * 1024}
	if diff := cmp.Diff(want, parseStatus(status), cmp.AllowUnexported(procStats{})); diff != "" {
		t.Errorf("VmRSS, RssAnon, RssFile and VmHWM in bytes: -want +got:\n%s", diff)
	}
}

func TestParseStat(t *testing.T) {
	cases := map[string]struct {
		reason  string
		stat    string
		want    time.Duration
		wantErr bool
	}{
		"Plain": {
			reason: "utime 250 + stime 70 ticks at 100 Hz is 3.2 s.",
			stat:   "4242 (provider) S 1 4242 4242 0 -1 4194560 3561 0 0 0 250 70 0 0 20 0 12 0 4005 1359069184 14528",
			want:   3200 * time.Millisecond,
		},
		"CommandWithSpaces": {
			reason: "The command name may hold spaces and parentheses; fields count from the last ')'.",
			stat:   "4242 (a (b) c) R 1 4242 4242 0 -1 4194560 3561 0 0 0 100 0 0 0 20 0 12 0 4005 1359069184 14528",
			want:   time.Second,
		},
		"Truncated": {reason: "A short line is an error.", stat: "4242 (provider) S 1 2", wantErr: true},
		"NoCommand": {reason: "A line without the command is an error.", stat: "garbage", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseStat(tc.stat)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("%s\nparseStat: got %s, %v; want %s, error %t", tc.reason, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestSamplerWindow(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s := &sampler{samples: []rssSample{{t0, 10}, {t0.Add(time.Second), 40}, {t0.Add(2 * time.Second), 20}, {t0.Add(3 * time.Second), 90}}}
	peak, mean := s.window(t0.Add(time.Second), t0.Add(2*time.Second))
	if peak != 40 || mean != 30 {
		t.Errorf("window of the 2nd and 3rd samples: peak %d, mean %d; want 40, 30", peak, mean)
	}
	if peak, mean := s.window(t0.Add(time.Hour), t0.Add(2*time.Hour)); peak != 0 || mean != 0 {
		t.Errorf("empty window: got %d, %d; want 0, 0", peak, mean)
	}
}
