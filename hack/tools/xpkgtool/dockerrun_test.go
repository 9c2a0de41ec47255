package main

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// run is RUN command && command ...: simple commands the model knows, in
// a shell whose working directory starts at the stage's. Cache mounts
// (--mount) do not change what the stage holds.
func (s *stage) run(rest string) error {
	sh := &shell{s: s, cwd: s.cwd}
	for _, c := range strings.Split(rest, "&&") {
		w, err := shellWords(c, s.vars)
		if err != nil {
			return err
		}
		env, w := assignments(w)
		if len(w) == 0 {
			return fmt.Errorf("no command in %q", c)
		}
		if err := sh.exec(env, w); err != nil {
			return fmt.Errorf("%s: %w", strings.Join(w, " "), err)
		}
	}
	return nil
}

// assignment matches a NAME=value word before a command.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// assignments splits a command's leading NAME=value words from it.
func assignments(w []string) (env, cmd []string) {
	i := 0
	for i < len(w) && assignment.MatchString(w[i]) {
		i++
	}
	return w[:i], w[i:]
}

// A shell runs one RUN's commands on a stage, as root.
type shell struct {
	s   *stage
	cwd string
}

func (sh *shell) exec(env, w []string) error {
	args := w[1:]
	if len(env) > 0 && w[0] != "go" {
		return errors.New("environment assignments are modelled for go only")
	}
	switch {
	case w[0] == "cd" && len(args) == 1:
		sh.cwd = sh.path(args[0])
	case w[0] == "mkdir" && len(args) > 1 && args[0] == "-p":
		for _, p := range args[1:] {
			sh.s.mkdirAll(sh.path(p), -1, -1)
		}
	case w[0] == "cp" && len(args) == 2:
		return sh.cp(args[0], args[1])
	case w[0] == "chmod" && len(args) > 1:
		m, err := strconv.ParseInt(args[0], 8, 64)
		if err != nil || m > 0o7777 {
			return fmt.Errorf("mode %q is not octal", args[0])
		}
		return sh.each(args[1:], func(n *node) { n.mode = m })
	case w[0] == "chown" && len(args) > 1:
		u, g, err := ids(args[0])
		if err != nil {
			return err
		}
		return sh.each(args[1:], func(n *node) { n.uid, n.gid = u, g })
	case w[0] == "go" && len(args) > 0 && args[0] == "build":
		return sh.goBuild(env, args)
	default:
		return errors.New("command not modelled")
	}
	return nil
}

func (sh *shell) path(p string) string { return sh.s.abs(sh.cwd, p) }

// cp copies a file; one the model does not know comes from the base image.
func (sh *shell) cp(src, dst string) error {
	d := sh.path(dst)
	if p, ok := sh.s.fs[parentOf(d)]; parentOf(d) != "/" && (!ok || !p.dir) {
		return fmt.Errorf("no directory %s", parentOf(d))
	}
	data := "copy of " + sh.path(src) + " from the base image"
	if n, ok := sh.s.fs[sh.path(src)]; ok {
		data = n.data
	}
	sh.s.fs[d] = &node{mode: -1, uid: -1, gid: -1, data: data}
	return nil
}

// each applies set to every path, which must exist.
func (sh *shell) each(paths []string, set func(*node)) error {
	for _, p := range paths {
		n, ok := sh.s.fs[sh.path(p)]
		if !ok {
			return fmt.Errorf("no file %s", sh.path(p))
		}
		set(n)
	}
	return nil
}

// goBuild is go build ... -o OUT ...: OUT (and its missing directories)
// holds what goBuildDescription says of the build.
func (sh *shell) goBuild(env, args []string) error {
	i := slices.Index(args, "-o")
	if i < 0 || i+1 == len(args) {
		return errors.New("go build without -o")
	}
	out := sh.path(args[i+1])
	sh.s.mkdirAll(parentOf(out), -1, -1)
	sh.s.fs[out] = &node{mode: -1, uid: -1, gid: -1, data: goBuildDescription(env, append([]string{"go"}, args...))}
	return nil
}

// goBuildDescription describes a go build by its environment assignments
// (sorted) and its command line without its -o output, each word quoted.
func goBuildDescription(env, cmd []string) string {
	env = slices.Sorted(slices.Values(env))
	if i := slices.Index(cmd, "-o"); i >= 0 && i+1 < len(cmd) {
		cmd = slices.Delete(slices.Clone(cmd), i, i+2)
	}
	var out []string
	for _, w := range append(env, cmd...) {
		out = append(out, strconv.Quote(w))
	}
	return strings.Join(out, " ")
}

func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

// ids reads a numeric owner uid:gid.
func ids(s string) (int, int, error) {
	u, g, ok := strings.Cut(s, ":")
	uid, err1 := strconv.Atoi(u)
	gid, err2 := strconv.Atoi(g)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("owner %q is not numeric uid:gid", s)
	}
	return uid, gid, nil
}
