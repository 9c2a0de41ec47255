package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A documentedFlag is one row of the README's provider flags table.
type documentedFlag struct {
	Name, Env, Default string
}

// readmeFlags returns the rows of the README's table of provider flags:
// the rows whose first cell is a backquoted --flag.
func readmeFlags(t *testing.T) []documentedFlag {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []documentedFlag
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`--") {
			continue
		}
		cell := func(i int) string { return strings.Trim(strings.TrimSpace(cells[i]), "`") }
		out = append(out, documentedFlag{Name: strings.TrimPrefix(cell(1), "--"), Env: cell(2), Default: cell(3)})
	}
	return out
}

// servedFlags returns every flag --help shows (not hidden, not kingpin's
// own help and version), with its environment variable and default as the
// README's table writes them: a bool without a default is false.
func servedFlags() []documentedFlag {
	var f flags
	var out []documentedFlag
	for _, m := range newApp(&f).Model().Flags {
		if m.Hidden || m.Name == "help" || m.Name == "version" {
			continue
		}
		def := strings.Join(m.Default, ",")
		if def == "" && m.IsBoolFlag() {
			def = "false"
		}
		out = append(out, documentedFlag{Name: m.Name, Env: m.Envar, Default: def})
	}
	return out
}

// TestReadmeFlagsTable checks that the README's flags table lists exactly
// the flags the provider serves, in the same order, each with its
// environment variable and default.
func TestReadmeFlagsTable(t *testing.T) {
	got := readmeFlags(t)
	if len(got) == 0 {
		t.Fatal("README.md has no provider flags table (rows starting with | `--)")
	}
	if diff := cmp.Diff(servedFlags(), got); diff != "" {
		t.Errorf("README.md's flags table differs from the provider's flags (-binary +README):\n%s", diff)
	}
}
