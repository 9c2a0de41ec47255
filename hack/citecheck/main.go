// Command citecheck fails when a file of the repository cites a document
// that is not in the repository, or a section (§n) that is not a numbered
// heading of the document it names. It checks every file git tracks, or
// would track (untracked and not ignored), whose name says it is text a
// reader follows citations in: Go, Markdown, shell, YAML, Makefiles and
// Dockerfiles. `make lint` runs it.
//
// A citation is a path ending in .md, resolved against the repository root
// or the citing file's directory, optionally followed by section numbers
// (`docs/rustfs-wire.md §4.2, §13.1`). A section sign belongs to the
// document named last before it on its line or, in code, up to three lines
// above in the same comment; in a Markdown file one with no document before
// it on its line belongs to the file itself. URLs are not citations.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"strings"
)

// checked says which tracked files are checked, by name.
func checked(name string) bool {
	base := path.Base(name)
	switch {
	case base == "Makefile", base == "Dockerfile":
		return true
	case strings.HasPrefix(name, "package/provider/crds/"):
		return false // generated from the Go types, which are checked
	case strings.HasPrefix(name, "hack/citecheck/") && strings.HasSuffix(name, "_test.go"):
		return false // the checker's own fixtures cite missing documents on purpose
	}
	switch path.Ext(base) {
	case ".go", ".md", ".sh", ".yaml", ".yml", ".conf":
		return true
	}
	return false
}

func main() {
	root := "."
	if len(os.Args) == 2 {
		root = os.Args[1]
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "citecheck: cannot list the repository's files:", err)
		os.Exit(2)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if checked(f) {
			if _, err := os.Stat(path.Join(root, f)); err == nil { // deleted but not yet staged
				files = append(files, f)
			}
		}
	}
	problems, err := check(os.DirFS(root), files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "citecheck:", err)
		os.Exit(2)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "citecheck: %d citation(s) do not resolve in the repository\n", len(problems))
		os.Exit(1)
	}
}
