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
	const rotated = "rotated-" + sentinel
	ctx := context.Background()
	var mu sync.Mutex
	var log []string
	p := newPair(t, rustfstest.ModeGA, rustfstest.WithRequestLog(func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, fmt.Sprintf(format, args...))
	}))
	p.local.PutObject("data", "a.txt", []byte("a"))
	a := newAccount(t, "XPSENTINEL")
	a.SecretKey = sentinel
	u := ServiceAccountUpdate{SecretKey: rotated}
	for _, s := range append(formats(a), append(formats(u), formats(&u)...)...) {
		if strings.Contains(s, sentinel) {
			t.Errorf("a request type printed the secret: %s", s)
		}
	}
	errs := []error{p.client.AddServiceAccount(ctx, a)}
	errs = append(errs, p.client.AddServiceAccount(ctx, a)) // already in use
	bad := a
	bad.SecretKey = strings.Repeat(sentinel, 2) // too long, refused locally
	errs = append(errs, p.client.AddServiceAccount(ctx, bad),
		p.client.UpdateServiceAccount(ctx, "XPNOBODY", u),
		p.client.UpdateServiceAccount(ctx, a.AccessKey, ServiceAccountUpdate{SecretKey: sentinel[:7]}))
	c := sdk(p.local.URL(), a.AccessKey, sentinel)
	errs = append(errs, putOp("data", "x", "").call(ctx, c), getOp("data", "a.txt", "").call(ctx, c),
		p.client.UpdateServiceAccount(ctx, a.AccessKey, u))
	errs = append(errs, getOp("data", "a.txt", "").call(ctx, c)) // old key
	info, err := p.client.ServiceAccountInfo(ctx, a.AccessKey)
	errs = append(errs, err, p.client.DeleteServiceAccount(ctx, a.AccessKey),
		getOp("data", "a.txt", "").call(ctx, sdk(p.local.URL(), a.AccessKey, rotated)))
	for i, err := range errs {
		if err == nil {
			continue
		}
		for _, s := range formats(err) {
			if strings.Contains(s, sentinel) {
				t.Errorf("error %d printed the secret: %s", i, s)
			}
		}
	}
	for _, s := range formats(info) {
		if strings.Contains(s, sentinel) {
			t.Errorf("info printed the secret: %s", s)
		}
	}
	if len(log) < 8 {
		t.Fatalf("the request log has %d lines; the test did not exercise the emulator", len(log))
	}
	for _, line := range log {
		if strings.Contains(line, sentinel) {
			t.Errorf("the emulator's request log holds the secret: %s", line)
		}
	}
	for _, r := range p.local.Requests() {
		if strings.Contains(fmt.Sprintf("%+v", r), sentinel) {
			t.Errorf("a request record holds the secret: %+v", r)
		}
	}
}
