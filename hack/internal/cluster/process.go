// Package cluster starts what the demo and the benchmark run the provider
// against, on one machine and without a cluster: etcd and kube-apiserver
// with the provider's CRDs installed (through envtest), and child
// processes such as the provider binary, each in a process group of its
// own so that the caller alone decides when and in which order they stop.
package cluster

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A Child is a process started by Spawn.
type Child struct {
	Name string
	Cmd  *exec.Cmd
	done chan struct{}
}

// Spawn starts path with args and extra environment, logging to
// <dir>/<name>.log. The child is killed if the caller dies.
func Spawn(dir, name string, env []string, path string, args ...string) (*Child, error) {
	log, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		return nil, errors.Wrapf(err, "cannot create the %s log", name)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return nil, errors.Wrapf(err, "cannot start %s", name)
	}
	c := &Child{Name: name, Cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		_ = log.Close()
		close(c.done)
	}()
	return c, nil
}

// Pid returns the child's process id.
func (c *Child) Pid() int { return c.Cmd.Process.Pid }

// Exited reports whether the child has stopped.
func (c *Child) Exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// Stop sends SIGTERM to the child's process group and SIGKILL if it has
// not stopped within 10 seconds.
func (c *Child) Stop() {
	if c.Exited() {
		return
	}
	pgid := -c.Cmd.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(pgid, syscall.SIGKILL)
		<-c.done
	}
}

// WaitListening waits until addr accepts TCP connections, the child exits,
// or ctx ends.
func WaitListening(ctx context.Context, c *Child, addr string) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = conn.Close()
			return nil
		}
		if c.Exited() {
			return errors.Errorf("%s exited; see its log", c.Name)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return errors.Errorf("%s is not listening on %s", c.Name, addr)
}

// FreeAddr returns a loopback address with a port that was free a moment
// ago.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String(), nil
}
