package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// buildTags returns the -tags of the Makefile's BUILDFLAGS: how make builds
// every shipped binary.
func buildTags(t *testing.T) string {
	t.Helper()
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^BUILDFLAGS := .*-tags (\S+)`).FindSubmatch(makefile)
	if m == nil {
		t.Fatal("the Makefile sets no BUILDFLAGS with -tags")
	}
	return string(m[1])
}

// TestEveryBuildUsesTheTags checks that each go build of a shipped binary,
// in the Makefile, in hack/tools/xpkgtool/runtimes.go (the go build make
// xpkg runs for the images) and in the Dockerfiles generated from it,
// uses the same tags, so that what make bench measures is what the
// packages ship.
func TestEveryBuildUsesTheTags(t *testing.T) {
	tags := buildTags(t)
	cases := map[string]struct {
		build string // what marks a line that builds a shipped binary
		want  string
	}{
		"../../Makefile":                                         {build: "CGO_ENABLED=0 $(GO) build ", want: "$(BUILDFLAGS)"},
		"../../hack/tools/xpkgtool/runtimes.go":                  {build: `"build", `, want: `"-tags", "` + tags + `"`},
		"../../cluster/images/provider-rustfs/Dockerfile":        {build: " go build ", want: "-tags " + tags + " "},
		"../../cluster/images/function-rustfs-tenant/Dockerfile": {build: " go build ", want: "-tags " + tags + " "},
	}
	for file, tc := range cases {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		builds := 0
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, tc.build) {
				continue
			}
			builds++
			if !strings.Contains(line, tc.want) {
				t.Errorf("%s builds without %s: %s", file, tc.want, strings.TrimSpace(line))
			}
		}
		if builds == 0 {
			t.Errorf("%s: no line with %q found", file, tc.build)
		}
	}
}
