package rustfs

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// The sentinel rule for parent users: the secret key sent with add-user is in
// no error, no result and no line of the emulator's request log, whether the
// add fails or succeeds; and the client never hands it back.
func TestParentUserSecretIsNeverPrinted(t *testing.T) {
	p, lines := newLoggedPair(t)
	ctx := context.Background()
	fixed := func() (string, error) { return sentinel, nil }
	var printed []string
	p.local.InjectFault(rustfstest.RouteAddUser, rustfstest.Fault{Status: 500, Message: "save failed", Times: 1})
	_, _, err := p.client.ensureUser(ctx, "provider-rustfs-team-a-aaaaaaaa", fixed)
	if err == nil {
		t.Fatal("the injected failure did not fail the add")
	}
	printed = append(printed, formats(err)...)
	info, created, err := p.client.ensureUser(ctx, "provider-rustfs-team-a-aaaaaaaa", fixed)
	if err != nil || !created {
		t.Fatalf("ensureUser: created %t, %v", created, err)
	}
	if u, _ := p.local.User("provider-rustfs-team-a-aaaaaaaa"); u.SecretKey != sentinel {
		t.Fatal("the emulator did not store the sentinel; the test proves nothing")
	}
	printed = append(printed, formats(info)...)
	state, err := p.client.EnsureParentUser(ctx, ParentUser{Name: "provider-rustfs-team-a-aaaaaaaa", Policy: parentFor(t, "team-a").Policy})
	printed = append(append(printed, formats(state)...), formats(err)...)
	got, err := p.client.UserInfo(ctx, "provider-rustfs-team-a-aaaaaaaa")
	printed = append(append(printed, formats(got)...), formats(err)...)
	for _, s := range printed {
		if strings.Contains(s, sentinel) {
			t.Errorf("printed the secret: %s", s)
		}
	}
	expectLogWithoutSentinel(t, lines(), 6)
	for _, r := range p.local.Requests() {
		if strings.Contains(fmt.Sprintf("%+v", r), sentinel) {
			t.Errorf("a request record holds the secret: %+v", r)
		}
	}
}
