package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain lets the test binary act as the provider binary, so that the
// help test runs the real flag parsing in a child process.
func TestMain(m *testing.M) {
	if os.Getenv("PROVIDER_RUSTFS_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestHelpListsEveryFlag(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--help")
	cmd.Env = append(os.Environ(), "PROVIDER_RUSTFS_RUN_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("--help: %v\n%s", err, out)
	}
	for _, flag := range []string{
		"--[no-]debug", "$DEBUG",
		"--[no-]leader-election", "$LEADER_ELECTION",
		"--sync=1h", "$SYNC_INTERVAL",
		"--poll=1m", "$POLL_INTERVAL",
		"--poll-jitter=", "$POLL_JITTER",
		"--max-reconcile-rate=10", "$MAX_RECONCILE_RATE",
		"--metrics-bind-address=", "$METRICS_BIND_ADDRESS",
		"--health-probe-bind-address=", "$HEALTH_PROBE_BIND_ADDRESS",
	} {
		if !strings.Contains(string(out), flag) {
			t.Errorf("--help does not list %q:\n%s", flag, out)
		}
	}
}

// TestBinaryHoldsNoTestCode checks that the provider binary links neither
// the RustFS emulator nor test-only libraries (the AWS SDK's S3 client is
// used only to check the emulator; the client signs with the SDK's signer).
func TestBinaryHoldsNoTestCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"/rustfstest", "github.com/aws/aws-sdk-go-v2/service/s3", "github.com/onsi/gomega", "sigs.k8s.io/controller-runtime/pkg/envtest", "/internal/testenv"} {
			if strings.Contains(pkg, banned) {
				t.Errorf("the provider binary depends on %s", pkg)
			}
		}
	}
}
