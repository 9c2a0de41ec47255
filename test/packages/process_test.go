package packages

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A process is a program the install test runs in the background: the
// registry, Crossplane core and its RBAC manager, the function and the
// provider. It is stopped when the test ends, and its output is shown
// (secret values redacted) if the test failed.
type process struct {
	name string
	cmd  *exec.Cmd
	log  *testenv.LogBuffer
	done chan struct{}
}

// processes are the processes the test runs; wait reads their output as
// progress.
var processes started

// started is a list of processes safe for concurrent use.
type started struct {
	mu   sync.Mutex
	list []*process
}

func (s *started) add(p *process) *process {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, p)
	return p
}

func (s *started) remove(p *process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = slices.DeleteFunc(s.list, func(q *process) bool { return q == p })
}

func (s *started) all() []*process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.list)
}

// logTail is how much of a process's output a failed test shows.
const logTail = 64 << 10

// start starts bin with args and the extra environment variables env.
func start(t *testing.T, name string, env []string, bin string, args ...string) *process {
	t.Helper()
	p := processes.add(&process{name: name, log: &testenv.LogBuffer{}, done: make(chan struct{})})
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("cannot start %s: %v", name, err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.stop(t) })
	return p
}

// startReadingAddress starts a program that prints the address it listens
// on as its first line, and returns that address.
func startReadingAddress(t *testing.T, name, bin string, args ...string) (*process, string) {
	t.Helper()
	p := processes.add(&process{name: name, log: &testenv.LogBuffer{}, done: make(chan struct{})})
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stderr = p.log
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("cannot start %s: %v", name, err)
	}
	r := bufio.NewReader(out)
	addr, err := r.ReadString('\n')
	go func() { _, _ = io.Copy(p.log, r); _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.stop(t) })
	if err != nil {
		t.Fatalf("%s printed no address: %v\n%s", name, err, p.log)
	}
	return p, strings.TrimSpace(addr)
}

// stop terminates the process, kills it if it has not stopped after ten
// seconds, and shows its output if the test failed.
func (p *process) stop(t *testing.T) {
	processes.remove(p)
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	if t.Failed() {
		out := p.log.String()
		if len(out) > logTail {
			out = "…" + out[len(out)-logTail:]
		}
		t.Logf("%s output (secret values redacted):\n%s", p.name, redact(out))
	}
}

// running fails the test if the process has exited.
func (p *process) running(t *testing.T) {
	t.Helper()
	if err := p.alive(); err != nil {
		t.Fatalf("%v\n%s", err, redact(p.log.String()))
	}
}

// alive returns an error if the process has exited.
func (p *process) alive() error {
	select {
	case <-p.done:
		return errors.Errorf("%s exited: %v", p.name, p.cmd.ProcessState)
	default:
		return nil
	}
}

// port is the port of a host:port address.
func port(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}

// waitListening waits until something accepts connections on addr, and
// fails the test if p exits first.
func waitListening(t *testing.T, p *process, addr string) {
	t.Helper()
	if err := testenv.WaitListening(context.Background(), addr, eventually, p.alive); err != nil {
		t.Fatalf("%s: %v\n%s", p.name, err, redact(p.log.String()))
	}
}

// hostBinary extracts the binary of package p built for this machine.
func hostBinary(t *testing.T, p pkg) string {
	t.Helper()
	for _, f := range p.files(t, env.dir) {
		if goos, goarch := platform(f); goos+"_"+goarch == hostPlatform() {
			return extract(t, f, "usr/local/bin/"+p.runtime)
		}
	}
	t.Fatalf("no %s package for %s: build one with make xpkg PLATFORMS=%s", p.name, hostPlatform(), hostPlatform())
	return ""
}

func hostPlatform() string { return runtime.GOOS + "_" + runtime.GOARCH }
