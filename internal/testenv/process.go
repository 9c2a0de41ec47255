package testenv

import (
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

// Alive returns an error naming the child if it has stopped.
func (c *Child) Alive() error {
	if c.Exited() {
		return errors.Errorf("%s exited; see its log", c.Name)
	}
	return nil
}
