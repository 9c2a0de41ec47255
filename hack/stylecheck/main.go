// Command stylecheck fails when a Go file of the repository breaks a size
// or complexity limit of the house style (docs/contributing.md §1), or
// carries a //nolint directive, which no linter here reads. It checks every
// Go file git tracks, or would track, that is not generated. `make lint`
// runs it.
//
//	stylecheck [root]
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"strings"
)

func main() {
	root := "."
	if len(os.Args) == 2 {
		root = os.Args[1]
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "*.go").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "stylecheck: cannot list the repository's files:", err)
		os.Exit(2)
	}
	var problems []string
	for _, f := range strings.Fields(string(out)) {
		src, err := os.ReadFile(path.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted but not yet staged
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "stylecheck:", err)
			os.Exit(2)
		}
		p, err := check(f, src, defaultLimits(f))
		if err != nil {
			fmt.Fprintln(os.Stderr, "stylecheck:", err)
			os.Exit(2)
		}
		problems = append(problems, p...)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		fmt.Printf("stylecheck: %d problems (limits: docs/contributing.md §1)\n", len(problems))
		os.Exit(1)
	}
}
