package main

import (
	"sync"
	"time"

	"github.com/prometheus/procfs"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

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
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return procStats{}, errors.Wrap(err, "cannot open /proc")
	}
	return readProcIn(fs, pid)
}

// readProcIn reads the status and stat files of process pid in fs.
func readProcIn(fs procfs.FS, pid int) (procStats, error) {
	p, err := fs.Proc(pid)
	if err != nil {
		return procStats{}, errors.Wrap(err, "cannot find the provider in /proc")
	}
	status, err := p.NewStatus()
	if err != nil {
		return procStats{}, errors.Wrap(err, "cannot read the provider's /proc status")
	}
	stat, err := p.Stat()
	if err != nil {
		return procStats{}, errors.Wrap(err, "cannot read the provider's /proc stat")
	}
	return procStats{
		rss:  int64(status.VmRSS),
		anon: int64(status.RssAnon),
		file: int64(status.RssFile),
		peak: int64(status.VmHWM),
		cpu:  time.Duration(stat.CPUTime() * float64(time.Second)),
	}, nil
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
