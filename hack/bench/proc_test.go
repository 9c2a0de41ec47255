package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/procfs"
)

// procFixture writes a /proc with one process, 4242, whose status and stat
// files are the given text.
func procFixture(t *testing.T, status, stat string) procfs.FS {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "4242"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"status": status, "stat": stat} {
		if err := os.WriteFile(filepath.Join(dir, "4242", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs, err := procfs.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

const status = "Name:\tprovider\nVmPeak:\t 1327228 kB\nVmHWM:\t   61720 kB\nVmRSS:\t   58112 kB\nRssAnon:\t   31000 kB\nRssFile:\t   27112 kB\nThreads:\t12\n"

func TestReadProc(t *testing.T) {
	cases := map[string]struct {
		reason  string
		stat    string
		want    procStats
		wantErr bool
	}{
		"Plain": {
			reason: "Sizes in bytes; utime 250 + stime 70 ticks at 100 Hz is 3.2 s.",
			stat:   "4242 (provider) S 1 4242 4242 0 -1 4194560 3561 0 0 0 250 70 0 0 20 0 12 0 4005 1359069184 14528 0 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0",
			want:   procStats{rss: 58112 * 1024, anon: 31000 * 1024, file: 27112 * 1024, peak: 61720 * 1024, cpu: 3200 * time.Millisecond},
		},
		"CommandWithSpaces": {
			reason: "The command name may hold spaces and parentheses; fields count from the last ')'.",
			stat:   "4242 (a (b) c) R 1 4242 4242 0 -1 4194560 3561 0 0 0 100 0 0 0 20 0 12 0 4005 1359069184 14528 0 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0",
			want:   procStats{rss: 58112 * 1024, anon: 31000 * 1024, file: 27112 * 1024, peak: 61720 * 1024, cpu: time.Second},
		},
		"Truncated": {reason: "A short stat line is an error.", stat: "4242 (provider) S 1 2", wantErr: true},
		"NoCommand": {reason: "A stat line without the command is an error.", stat: "garbage", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := readProcIn(procFixture(t, status, tc.stat), 4242)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nreadProcIn: got error %v, want error %t", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(procStats{})); diff != "" {
				t.Errorf("%s\nreadProcIn: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// The test's own process, read from the real /proc, is resident and has a
// peak at least as large.
func TestReadProcSelf(t *testing.T) {
	got, err := readProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if got.rss <= 0 || got.anon <= 0 || got.file <= 0 || got.peak < got.rss {
		t.Errorf("readProc(self): got %+v; want a positive resident set made of anonymous and file pages, peak >= rss", got)
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
