package main

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// A node is a file or directory of a stage's filesystem as the model
// knows it. A mode or owner of -1 is one the Dockerfile leaves to the
// builder (a umask, the user a RUN runs as), so a test can tell it from
// one the Dockerfile sets.
type node struct {
	dir      bool
	mode     int64
	uid, gid int
	data     string // the contents, or where they come from
}

// A stage is the model of one build stage.
type stage struct {
	base string
	vars map[string]string // the ARGs and ENVs in scope
	fs   map[string]*node  // by absolute path; / itself is not modelled
	cwd  string
	cfg  v1.Config
}

// A build is the model of a Dockerfile built with some build arguments.
type build struct {
	args   map[string]string // --build-arg values and BuildKit's platform arguments
	global map[string]string // the ARGs before the first FROM
	stages map[string]*stage // by name
	cur    *stage            // the last stage: the image
}

// allowedFlags are the instruction flags the model knows.
var allowedFlags = map[string][]string{"FROM": {"platform"}, "COPY": {"from"}, "RUN": {"mount"}}

// evaluate builds the model of the Dockerfile src.
func evaluate(src string, args map[string]string) (*build, error) {
	ins, err := parseDockerfile(src)
	if err != nil {
		return nil, err
	}
	b := &build{args: args, global: map[string]string{}, stages: map[string]*stage{}}
	for _, in := range ins {
		if err := b.apply(in); err != nil {
			return nil, fmt.Errorf("%s %s: %w", in.cmd, in.rest, err)
		}
	}
	if b.cur == nil {
		return nil, errors.New("no FROM")
	}
	return b, nil
}

func (b *build) apply(in instruction) error {
	for f := range in.flags {
		if !slices.Contains(allowedFlags[in.cmd], f) {
			return fmt.Errorf("flag --%s is not modelled", f)
		}
	}
	switch in.cmd {
	case "FROM":
		return b.from(in.rest)
	case "ARG":
		return b.arg(in.rest)
	}
	if b.cur == nil {
		return errors.New("before the first FROM")
	}
	s := b.cur
	switch in.cmd {
	case "COPY":
		return b.copy(in)
	case "RUN":
		return s.run(in.rest)
	case "ENV":
		return s.env(in.rest)
	case "WORKDIR":
		s.cwd = s.abs("/", s.expand(in.rest))
		s.cfg.WorkingDir = s.cwd
	case "USER":
		s.cfg.User = s.expand(in.rest)
	case "EXPOSE":
		return s.expose(in.rest)
	case "LABEL":
		return s.label(in.rest)
	case "ENTRYPOINT":
		ep, err := jsonArgs(in.rest)
		s.cfg.Entrypoint = ep
		return err
	default:
		return errors.New("instruction not modelled")
	}
	return nil
}

// from starts a stage: FROM image [AS name].
func (b *build) from(rest string) error {
	w, err := shellWords(rest, b.global)
	if err != nil {
		return err
	}
	if len(w) != 1 && (len(w) != 3 || !strings.EqualFold(w[1], "AS")) {
		return errors.New("want FROM image [AS name]")
	}
	b.cur = &stage{base: w[0], vars: map[string]string{}, fs: map[string]*node{}, cwd: "/"}
	if len(w) == 3 {
		b.stages[w[2]] = b.cur
	}
	return nil
}

// arg declares ARG name[=default]: the build argument's value if given,
// else the default, else (in a stage) the global ARG's value.
func (b *build) arg(rest string) error {
	k, def, hasDef := strings.Cut(rest, "=")
	vars := b.global
	if b.cur != nil {
		vars = b.cur.vars
	}
	v, given := b.args[k]
	switch {
	case given:
	case hasDef:
		w, err := shellWords(def, vars)
		if err != nil || len(w) != 1 {
			return fmt.Errorf("bad default %q: %v", def, err)
		}
		v = w[0]
	case b.cur != nil:
		v = b.global[k]
	}
	vars[k] = v
	return nil
}

// copy is COPY: a here-document to a file, or a directory's contents from
// another stage, keeping their modes and owners (no --chown or --chmod).
// Copies from the build context leave the model's files alone.
func (b *build) copy(in instruction) error {
	s := b.cur
	w, err := shellWords(in.rest, s.vars)
	if err != nil || len(w) == 0 {
		return fmt.Errorf("bad COPY arguments: %v", err)
	}
	dest := s.abs(s.cwd, w[len(w)-1])
	from, ok := in.flags["from"]
	switch {
	case in.heredoc != "":
		s.mkdirAll(path.Dir(dest), 0o755, 0)
		s.fs[dest] = &node{mode: 0o644, data: in.heredoc}
	case ok:
		return b.copyFrom(from, w, dest)
	}
	return nil
}

func (b *build) copyFrom(from string, w []string, dest string) error {
	src, ok := b.stages[from]
	if !ok || len(w) != 2 || !strings.HasSuffix(w[0], "/") {
		return fmt.Errorf("want COPY --from=<stage> <dir>/ <dest>, of a stage defined before")
	}
	dir := path.Clean(w[0]) + "/"
	for p, n := range src.fs {
		if rel, ok := strings.CutPrefix(p, dir); ok {
			c := *n
			b.cur.fs[path.Join(dest, rel)] = &c
		}
	}
	return nil
}

// env is ENV name=value...: in the config, replacing a name already set.
func (s *stage) env(rest string) error {
	w, err := shellWords(rest, s.vars)
	if err != nil {
		return err
	}
	for _, kv := range w {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("want ENV name=value, got %q", kv)
		}
		s.vars[k] = v
		s.cfg.Env = slices.DeleteFunc(s.cfg.Env, func(e string) bool { return strings.HasPrefix(e, k+"=") })
		s.cfg.Env = append(s.cfg.Env, kv)
	}
	return nil
}

// expose is EXPOSE port[/protocol]...; the protocol defaults to tcp.
func (s *stage) expose(rest string) error {
	w, err := shellWords(rest, s.vars)
	if err != nil {
		return err
	}
	if s.cfg.ExposedPorts == nil {
		s.cfg.ExposedPorts = map[string]struct{}{}
	}
	for _, p := range w {
		if !strings.Contains(p, "/") {
			p += "/tcp"
		}
		s.cfg.ExposedPorts[p] = struct{}{}
	}
	return nil
}

// label is LABEL key=value....
func (s *stage) label(rest string) error {
	w, err := shellWords(rest, s.vars)
	if err != nil {
		return err
	}
	if s.cfg.Labels == nil {
		s.cfg.Labels = map[string]string{}
	}
	for _, kv := range w {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("want LABEL key=value, got %q", kv)
		}
		s.cfg.Labels[k] = v
	}
	return nil
}

func (s *stage) expand(x string) string {
	return os.Expand(x, func(k string) string { return s.vars[k] })
}

// abs is p resolved against the directory cwd.
func (s *stage) abs(cwd, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(cwd, p)
}

// mkdirAll creates p and its missing parents with mode and owner id.
func (s *stage) mkdirAll(p string, mode int64, id int) {
	for ; p != "/" && p != "."; p = path.Dir(p) {
		if _, ok := s.fs[p]; !ok {
			s.fs[p] = &node{dir: true, mode: mode, uid: id, gid: id}
		}
	}
}

// fileLines are the stage's files as "name type mode uid:gid", with "?"
// where the Dockerfile leaves a mode or owner to the builder.
func (s *stage) fileLines() []string {
	var out []string
	for p, n := range s.fs {
		name, typ, mode, owner := strings.TrimPrefix(p, "/"), "file", "?", "?"
		if n.dir {
			typ = "dir"
		}
		if n.mode >= 0 {
			mode = strconv.FormatInt(n.mode, 8)
		}
		if n.uid >= 0 && n.gid >= 0 {
			owner = strconv.Itoa(n.uid) + ":" + strconv.Itoa(n.gid)
		}
		out = append(out, strings.Join([]string{name, typ, mode, owner}, " "))
	}
	slices.Sort(out)
	return out
}
