package e2e

import (
	"strings"
	"testing"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// waitSyncedMessage waits until o is Synced=False with a message that
// holds every one of parts, and returns the message.
func (w *world) waitSyncedMessage(o managedObject, parts ...string) string {
	w.t.Helper()
	var msg string
	w.eventually(func(g gomega.Gomega) {
		w.get(g, o)
		expectCondition(g, o, xpv2.TypeSynced, corev1.ConditionFalse, "")
		msg = o.GetCondition(xpv2.TypeSynced).Message
		for _, p := range parts {
			g.Expect(msg).To(gomega.ContainSubstring(p), "Synced message %q", redact(msg))
		}
	})
	return msg
}

// A RustFS endpoint that answers a tier add or a credential edit with a
// redirect to another host gets no secret across: the other host receives
// no request at all, and the Tier says which host it was sent to.
func TestFaultRedirectSendsNoSecretElsewhere(t *testing.T) {
	testenv.Skip(t)
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
			sink := rustfstest.NewSink()
			t.Cleanup(sink.Close)
			host := strings.TrimPrefix(sink.URL(), "http://")

			w.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Redirect: sink.URL()})
			added := w.tier("added", "ADDED")
			w.create(added)
			w.waitSyncedMessage(added, "redirect", host)
			if _, ok := w.local.Tier("ADDED"); ok {
				t.Error("tier ADDED is registered although its add was redirected")
			}
			w.local.ClearFaults()

			edited := w.tier("edited", "EDITED")
			w.create(edited)
			w.waitReady(edited)
			w.local.InjectFault(rustfstest.RouteEditTier, rustfstest.Fault{Redirect: sink.URL()})
			if err := env.Client.Update(w.ctx, secret(w.ns, tierSecretName, rotatedAK, rotatedSK)); err != nil {
				t.Fatalf("cannot update Secret: %v", err)
			}
			w.waitSyncedMessage(edited, "redirect", host)

			if n := sink.Requests(); n != 0 {
				t.Errorf("the host the redirects named received %d requests, want none", n)
			}
			for _, sk := range []string{remoteSK, rotatedSK, localSK} {
				if sink.Received(sk) {
					t.Errorf("the host the redirects named received a secret key")
				}
			}
			if w.tierKeys("EDITED") != "remote" {
				t.Errorf("tier EDITED holds %s credentials after a redirected edit, want the ones it had", w.tierKeys("EDITED"))
			}
		})
	}
}

// A server that quotes the request body in its error answer (a tier add's
// and a credential edit's body hold the tier's secret key) reaches
// conditions, events and logs only scrubbed; the world's closing check
// looks for every secret key in the namespace's resources, their status,
// its events and the controllers' log.
func TestFaultEchoedRequestBodyNeverLeaksTheSecret(t *testing.T) {
	testenv.Skip(t)
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
			w.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Echo: true})
			added := w.tier("added", "ADDED")
			w.create(added)
			w.waitSyncedMessage(added, "cannot parse the request body", `"prefix":"ADDED/"`, `"secretKey":"REDACTED"`)
			w.local.ClearFaults()

			edited := w.tier("edited", "EDITED")
			w.create(edited)
			w.waitReady(edited)
			w.local.InjectFault(rustfstest.RouteEditTier, rustfstest.Fault{Echo: true})
			if err := env.Client.Update(w.ctx, secret(w.ns, tierSecretName, rotatedAK, rotatedSK)); err != nil {
				t.Fatalf("cannot update Secret: %v", err)
			}
			w.waitSyncedMessage(edited, "cannot parse the request body", "REDACTED")
			w.eventually(func(g gomega.Gomega) {
				g.Expect(w.log.String()).To(gomega.ContainSubstring("cannot parse the request body"), "controller log")
			})
			w.expectEchoEvent(edited)
		})
	}
}

// expectEchoEvent waits for an event about o that quotes the echoed body.
func (w *world) expectEchoEvent(o managedObject) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		l := &corev1.EventList{}
		g.Expect(env.Client.List(w.ctx, l)).To(gomega.Succeed())
		found := false
		for _, e := range l.Items {
			found = found || e.InvolvedObject.UID == o.GetUID() && strings.Contains(e.Message, "cannot parse the request body")
		}
		g.Expect(found).To(gomega.BeTrue(), "an event about %s quoting the echoed body", o.GetName())
	})
}
