package rustfs

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// The sentinel rule for service accounts: a secret key is never printed by
// the request types, never in an error, and never in the emulator's request
// log, whatever succeeds or fails.
func TestServiceAccountSecretsAreNeverPrinted(t *testing.T) {
	p, lines := newLoggedPair(t)
	p.local.PutObject("data", "a.txt", []byte("a"))
	a := newAccount(t, "XPSENTINEL")
	a.SecretKey = sentinel
	u := ServiceAccountUpdate{SecretKey: "rotated-" + sentinel}
	printed := append(formats(a), append(formats(u), formats(&u)...)...)
	info, errs := exerciseSecrets(t, p, a, u)
	printed = append(printed, formats(info)...)
	for _, err := range errs {
		if err != nil {
			printed = append(printed, formats(err)...)
		}
	}
	for _, s := range printed {
		if strings.Contains(s, sentinel) {
			t.Errorf("printed the secret: %s", s)
		}
	}
	expectLogWithoutSentinel(t, lines(), 8)
	for _, r := range p.local.Requests() {
		if strings.Contains(fmt.Sprintf("%+v", r), sentinel) {
			t.Errorf("a request record holds the secret: %+v", r)
		}
	}
}

// exerciseSecrets adds a, fails in every way it can with the secret in play,
// rotates to u's key, reads the account and deletes it; it returns the info
// and every error.
func exerciseSecrets(t *testing.T, p pair, a NewServiceAccount, u ServiceAccountUpdate) (ServiceAccountInfo, []error) {
	t.Helper()
	ctx := context.Background()
	errs := []error{p.client.AddServiceAccount(ctx, a), p.client.AddServiceAccount(ctx, a)} // the second: in use
	bad := a
	bad.SecretKey = strings.Repeat(a.SecretKey, 2) // too long, refused locally
	errs = append(errs, p.client.AddServiceAccount(ctx, bad), p.client.UpdateServiceAccount(ctx, "XPNOBODY", u),
		p.client.UpdateServiceAccount(ctx, a.AccessKey, ServiceAccountUpdate{SecretKey: a.SecretKey[:7]}))
	c := sdk(p.local.URL(), a.AccessKey, a.SecretKey)
	errs = append(errs, putOp("data", "x", "").call(ctx, c), getOp("data", "a.txt", "").call(ctx, c),
		p.client.UpdateServiceAccount(ctx, a.AccessKey, u), getOp("data", "a.txt", "").call(ctx, c)) // the last: old key
	info, err := p.client.ServiceAccountInfo(ctx, a.AccessKey)
	errs = append(errs, err, p.client.DeleteServiceAccount(ctx, a.AccessKey),
		getOp("data", "a.txt", "").call(ctx, sdk(p.local.URL(), a.AccessKey, u.SecretKey)))
	return info, errs
}

// newLoggedPair is a GA pair whose local emulator's request log lines are
// kept; lines returns them so far.
func newLoggedPair(t *testing.T) (pair, func() []string) {
	var mu sync.Mutex
	var log []string
	p := newPair(t, rustfstest.ModeGA, rustfstest.WithRequestLog(func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, fmt.Sprintf(format, args...))
	}))
	return p, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), log...)
	}
}

// expectLogWithoutSentinel fails unless the request log has at least min
// lines, so the emulator was exercised, and none holds the sentinel.
func expectLogWithoutSentinel(t *testing.T, log []string, min int) {
	t.Helper()
	if len(log) < min {
		t.Fatalf("the request log has %d lines; the test did not exercise the emulator", len(log))
	}
	for _, line := range log {
		if strings.Contains(line, sentinel) {
			t.Errorf("the emulator's request log holds the secret: %s", line)
		}
	}
}
