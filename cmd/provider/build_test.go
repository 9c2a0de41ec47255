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
// in the Makefile and in hack/xpkg.sh (the images), uses the same tags, so
// that what make bench measures is what the packages ship.
func TestEveryBuildUsesTheTags(t *testing.T) {
	tags := buildTags(t)
	for file, want := range map[string]string{
		"../../Makefile":     "$(BUILDFLAGS)",
		"../../hack/xpkg.sh": "-tags " + tags,
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		builds := 0
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, "CGO_ENABLED=0") || !strings.Contains(line, " build ") {
				continue
			}
			builds++
			if !strings.Contains(line, want) {
				t.Errorf("%s builds without %s: %s", file, want, strings.TrimSpace(line))
			}
		}
		if builds == 0 {
			t.Errorf("%s: no CGO_ENABLED=0 go build line found", file)
		}
	}
}
