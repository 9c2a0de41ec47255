package demo

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// run starts bin/demo -once with args from the repository root, as make demo
// does, with a fresh TMPDIR, the extra environment env and a marker in its
// environment that every process it starts inherits. It returns the
// output, the exit code, the TMPDIR and the marker.
func run(t *testing.T, env []string, args ...string) (out string, code int, tmp, mark string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the demo")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin", "demo")
	if _, err := os.Stat(bin); err != nil || os.Getenv("KUBEBUILDER_ASSETS") == "" {
		t.Fatalf("bin/demo and KUBEBUILDER_ASSETS are needed: run `make demo-test` (%v)", err)
	}
	tmp = t.TempDir()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	mark = "DEMO_TEST_MARK=" + hex.EncodeToString(b)
	cmd := exec.Command(bin, append([]string{"-once"}, args...)...)
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), env...), "TMPDIR="+tmp, mark)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err = cmd.Run()
	t.Logf("bin/demo -once %s: %s, %v\n%s", strings.Join(args, " "), time.Since(start).Round(time.Second), err, buf.String())
	return buf.String(), cmd.ProcessState.ExitCode(), tmp, mark
}

// TestDemoOnce is the README's first command: every resource Ready, the
// key proof passed, the Tenant Ready with its composed resources and
// status rows, exit 0, and nothing left behind.
func TestDemoOnce(t *testing.T) {
	out, code, tmp, mark := run(t, nil)
	if code != 0 {
		t.Errorf("bin/demo -once exited %d, want 0", code)
	}
	if !regexp.MustCompile(`(?m)^All \d+ resources Ready; the published key works; .* in \S+\.$`).MatchString(out) {
		t.Errorf("the summary does not say every resource is Ready and the key works")
	}
	for _, want := range []string{"\nTier ", "\nBucket ", "\nBucketLifecycle ", "\nBucketAccess ", "\nKeyProof "} {
		if !strings.Contains(out, want) {
			t.Errorf("the table has no %q line", strings.TrimSpace(want))
		}
	}
	expectTenant(t, out)
	expectNothingLeft(t, out, tmp, mark)
}

// expectTenant checks that the demo ran the example Tenant to Ready: its
// row, a Ready row per resource it composed (Tier, Bucket,
// BucketLifecycle, BucketAccess) and per status row, and the summary.
func expectTenant(t *testing.T, out string) {
	t.Helper()
	if !regexp.MustCompile(`; Tenant team-a/tenant-a Ready with 4 composed resources \(`).MatchString(out) {
		t.Errorf("the summary does not say the Tenant is Ready with 4 composed resources (was it skipped?)")
	}
	for _, kind := range []string{"Tenant", "TenantTier", "TenantBucket", "TenantAccess"} {
		if !regexp.MustCompile(`(?m)^` + kind + `\s+team-a/tenant-a\S*\s+True\s+True\s`).MatchString(out) {
			t.Errorf("the table has no Ready and Synced %s row for team-a/tenant-a", kind)
		}
	}
	composed := regexp.MustCompile(`(?m)^(Tier|Bucket|BucketLifecycle|BucketAccess)\s+team-a/tenant-a-\S+\s+True\s+True\s`).FindAllStringSubmatch(out, -1)
	var kinds []string
	for _, m := range composed {
		kinds = append(kinds, m[1])
	}
	if got := strings.Join(kinds, ","); got != "Tier,Bucket,BucketLifecycle,BucketAccess" {
		t.Errorf("Ready and Synced resources the Tenant composed: want Tier,Bucket,BucketLifecycle,BucketAccess, got %q", got)
	}
}

// TestDemoOnceWithoutCore: where Crossplane core cannot run, the demo
// still brings every managed resource to Ready, says in one line why the
// Tenant was skipped, and exits 0.
func TestDemoOnceWithoutCore(t *testing.T) {
	out, code, tmp, mark := run(t, []string{"CROSSPLANE_CORE=/nonexistent/crossplane-core"})
	if code != 0 {
		t.Errorf("bin/demo -once without Crossplane core exited %d, want 0", code)
	}
	if !regexp.MustCompile(`(?m)^All \d+ resources Ready; the published key works; Tenant skipped: no Crossplane core binary at /nonexistent/crossplane-core .* in `).MatchString(out) {
		t.Errorf("the summary does not say, in its one line, that the Tenant was skipped for want of core")
	}
	if strings.Contains(out, "\nTenant ") {
		t.Errorf("the table has a Tenant row, though core cannot run")
	}
	expectNothingLeft(t, out, tmp, mark)
}

// TestDemoOnceFails: a run that cannot finish in time exits non-zero,
// keeps its logs and prints where, and stops everything it started.
func TestDemoOnceFails(t *testing.T) {
	out, code, tmp, mark := run(t, nil, "-timeout=1ns")
	if code == 0 {
		t.Errorf("bin/demo -once -timeout=1ns exited 0, want non-zero")
	}
	m := regexp.MustCompile(`logs kept in (\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the output does not say where the logs are")
	}
	if _, err := os.Stat(filepath.Join(m[1], "provider.log")); err != nil {
		t.Errorf("the kept logs: %v", err)
	}
	if err := os.RemoveAll(m[1]); err != nil {
		t.Fatal(err)
	}
	expectNothingLeft(t, out, tmp, mark)
}

// expectNothingLeft checks that no process carries mark, that nothing
// listens on the addresses the demo printed, and that tmp is empty.
func expectNothingLeft(t *testing.T, out, tmp, mark string) {
	t.Helper()
	if pids := marked(mark); len(pids) > 0 {
		t.Errorf("processes the demo started still run: %v", pids)
	}
	addrs := regexp.MustCompile(`(?:https?://|serving on )(?:127\.0\.0\.1|remote\.rustfs\.test):(\d+)`).FindAllStringSubmatch(out, -1)
	if len(addrs) < 3 {
		t.Errorf("want the emulator's and the API server's addresses in the output, got %d", len(addrs))
	}
	for _, a := range addrs {
		addr := "127.0.0.1:" + a[1]
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = c.Close()
			t.Errorf("%s (printed as %s) still accepts connections", addr, a[0])
		}
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in TMPDIR: %s", e.Name())
	}
}

// marked returns the processes whose environment holds mark.
func marked(mark string) []string {
	var pids []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(b, []byte{0}) {
			if string(kv) == mark {
				if cmd, err := os.ReadFile(filepath.Join(d, "cmdline")); err == nil {
					pids = append(pids, filepath.Base(d)+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
				}
				break
			}
		}
	}
	return pids
}
