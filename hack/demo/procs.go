package main

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

// A child is a process the demo started, in a process group of its own so
// that the demo alone decides when and in which order it stops.
type child struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

// spawn starts path with args and extra environment, logging to
// <dir>/<name>.log. The child is killed if the demo dies.
func (d *demo) spawn(name string, env []string, path string, args ...string) (*child, error) {
	log, err := os.Create(filepath.Join(d.dir, name+".log"))
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
	c := &child{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		_ = log.Close()
		close(c.done)
	}()
	d.children = append(d.children, c)
	return c, nil
}

// exited reports whether the child has stopped.
func (c *child) exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM to the child's process group and SIGKILL if it has
// not stopped within 10 seconds.
func (c *child) stop() {
	if c.exited() {
		return
	}
	pgid := -c.cmd.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(pgid, syscall.SIGKILL)
		<-c.done
	}
}

// waitListening waits until addr accepts TCP connections, the child exits,
// or ctx ends.
func waitListening(ctx context.Context, c *child, addr string) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = conn.Close()
			return nil
		}
		if c.exited() {
			return errors.Errorf("%s exited; see its log", c.name)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return errors.Errorf("%s is not listening on %s", c.name, addr)
}

// freeAddr returns a loopback address with a port that was free a moment
// ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String(), nil
}
