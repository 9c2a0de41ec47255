package main

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat;
// 100 on every Linux architecture the provider is built for.
const clockTicks = 100

// A procStats is what /proc says about one process.
type procStats struct {
	rss  int64         // resident set size, bytes (VmRSS)
	anon int64         // its anonymous part (RssAnon): heap, stacks, runtime
	file int64         // its file-backed part (RssFile): the binary's pages
	peak int64         // peak resident set size, bytes (VmHWM)
	cpu  time.Duration // user + system CPU time
}

// readProc reads /proc/PID/status and /proc/PID/stat.
func readProc(pid int) (procStats, error) {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return procStats{}, errors.Wrap(err, "cannot read the provider's /proc status")
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStats{}, errors.Wrap(err, "cannot read the provider's /proc stat")
	}
	s := parseStatus(string(status))
	s.cpu, err = parseStat(string(stat))
	return s, err
}

// parseStatus reads VmRSS, RssAnon, RssFile and VmHWM (in kB) from
// /proc/PID/status.
func parseStatus(text string) procStats {
	var s procStats
	for _, line := range strings.Split(text, "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(value)
		if len(f) == 0 {
			continue
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch key {
		case "VmRSS":
			s.rss = kb * 1024
		case "RssAnon":
			s.anon = kb * 1024
		case "RssFile":
			s.file = kb * 1024
		case "VmHWM":
			s.peak = kb * 1024
		}
	}
	return s
}

// parseStat returns utime + stime from /proc/PID/stat. The command name
// may hold spaces and parentheses, so fields are counted after the last
// ')': utime and stime are fields 14 and 15 of the line, 12 and 13 after
// it.
func parseStat(text string) (time.Duration, error) {
	i := strings.LastIndexByte(text, ')')
	if i < 0 {
		return 0, errors.New("malformed /proc stat")
	}
	f := strings.Fields(text[i+1:])
	if len(f) < 13 {
		return 0, errors.New("malformed /proc stat: too few fields")
	}
	var ticks int64
	for _, s := range f[11:13] {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, errors.Wrap(err, "malformed /proc stat")
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// A sampler records the provider's resident set size once a second.
type sampler struct {
	mu      sync.Mutex
	samples []rssSample
}

type rssSample struct {
	at  time.Time
	rss int64
}

// run samples pid until stop is closed.
func (s *sampler) run(pid int, stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			p, err := readProc(pid)
			if err != nil {
				return
			}
			s.mu.Lock()
			s.samples = append(s.samples, rssSample{at: now, rss: p.rss})
			s.mu.Unlock()
		}
	}
}

// window returns the largest and the mean resident set size sampled
// between from and to.
func (s *sampler) window(from, to time.Time) (peak, mean int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sum, n int64
	for _, x := range s.samples {
		if x.at.Before(from) || x.at.After(to) {
			continue
		}
		peak = max(peak, x.rss)
		sum += x.rss
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return peak, sum / n
}
