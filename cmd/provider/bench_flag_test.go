package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The benchmark's --naive-tier-list is wiring, not a user flag: --help does
// not show it and no environment variable sets it, yet the benchmark can
// still pass it.
func TestNaiveTierListIsBenchWiring(t *testing.T) {
	if !parse([]string{"--naive-tier-list"}).naiveTierList {
		t.Error("--naive-tier-list does not set the naive tier list")
	}
	t.Setenv("NAIVE_TIER_LIST", "true")
	if parse(nil).naiveTierList {
		t.Error("the environment variable NAIVE_TIER_LIST sets the naive tier list")
	}
	cmd := exec.Command(os.Args[0], "--help")
	cmd.Env = append(os.Environ(), "PROVIDER_RUSTFS_RUN_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("--help: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "naive") {
		t.Errorf("--help lists the benchmark's naive tier list:\n%s", out)
	}
}
