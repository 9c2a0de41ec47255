package tier

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"strings"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

func TestNameErrorsFailBeforeAnyRustFSRequest(t *testing.T) {
	cases := map[string]struct {
		reason string
		name   string
	}{
		"Lowercase":       {reason: "RustFS refuses names that are not upper case.", name: "cold"},
		"Reserved":        {reason: "STANDARD is a reserved storage class.", name: "STANDARD"},
		"ReservedAnyCase": {reason: "Reserved names are refused in any case.", name: "reduced_redundancy"},
		"Slash":           {reason: "A '/' would break the raw URL segment of edits.", name: "A/B"},
		"DotDot":          {reason: "'..' is path navigation.", name: ".."},
		"TooLong":         {reason: "Names are at most 64 characters.", name: strings.Repeat("A", 65)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeGA)
			cr := h.store(tier(h.remote.TierURL(), withName(tc.name)))
			if _, err := h.reconcile(cr); reasonOf(err) != string(v1alpha1.ReasonTierApplyFailed) {
				t.Fatalf("%s\nreconcile: got %v, want a blocking TierApplyFailed", tc.reason, err)
			}
			if _, err := h.connect(cr).Create(ctx(t), cr); reasonOf(err) != string(v1alpha1.ReasonTierApplyFailed) {
				t.Errorf("%s\nCreate called anyway: got %v, want TierApplyFailed", tc.reason, err)
			}
			if got := get(cr, "Ready"); got != "False/TierApplyFailed" {
				t.Errorf("Ready: got %s, want False/TierApplyFailed", got)
			}
			if !strings.Contains(cr.GetCondition("Ready").Message, "spec.forProvider.name") {
				t.Errorf("message does not name the field: %s", cr.GetCondition("Ready").Message)
			}
			if n := len(h.local.Requests()); n != 0 {
				t.Errorf("%s\n%d RustFS requests, want none", tc.reason, n)
			}
		})
	}
}

func TestSecretErrorsFailBeforeAnyRustFSWrite(t *testing.T) {
	cases := map[string]struct {
		reason string
		data   map[string]string
		secret string
		want   string
	}{
		"MissingSecret": {reason: "A Secret that does not exist.", secret: "nope", want: `Secret team-a/nope not found`},
		"MissingKey":    {reason: "A Secret without the secret key.", data: map[string]string{"accesskey": tierAK}, want: `key "secretkey" of Secret team-a/cold-creds is missing`},
		"EmptyValue":    {reason: "A value that is only white space.", data: map[string]string{"accesskey": " \n", "secretkey": tierSK}, want: `key "accesskey" of Secret team-a/cold-creds is empty`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeGA)
			if tc.data != nil {
				s := secret(ns, secretName, tc.data)
				if err := h.kube.Update(ctx(t), s); err != nil {
					t.Fatal(err)
				}
			}
			cr := h.store(tier(h.remote.TierURL(), withSecret(secretName)))
			if tc.secret != "" {
				withSecret(tc.secret)(cr)
			}
			_, err := h.reconcile(cr)
			if reasonOf(err) != string(v1alpha1.ReasonTierSecretInvalid) {
				t.Fatalf("%s\nreconcile: got %v, want a blocking TierSecretInvalid", tc.reason, err)
			}
			if msg := cr.GetCondition("Ready").Message; !strings.Contains(msg, tc.want) || !strings.Contains(msg, `"accesskey" and "secretkey"`) {
				t.Errorf("%s\nmessage %q lacks %q and the next action", tc.reason, msg, tc.want)
			}
			if _, err := h.connect(cr).Create(ctx(t), cr); err == nil {
				t.Errorf("%s\nCreate succeeded without credentials", tc.reason)
			}
			if w := h.local.Writes(); w != 0 {
				t.Errorf("%s\n%d RustFS writes, want none", tc.reason, w)
			}
		})
	}
}

func TestSecretValuesAreTrimmed(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	s := secret(ns, secretName, map[string]string{"accesskey": "  " + tierAK + "\n", "secretkey": "\t" + tierSK + " \r\n"})
	if err := h.kube.Update(ctx(t), s); err != nil {
		t.Fatal(err)
	}
	cr := h.store(tier(h.remote.TierURL()))
	if step, err := h.reconcile(cr); step != "create" || err != nil {
		t.Fatalf("reconcile: %s, %v; want a successful create", step, err)
	}
	got, _ := h.liveTier("COLD")
	if got.AccessKey != keyLabel(tierAK) || got.SecretKey != keyLabel(tierSK) {
		t.Errorf("registered keys %s/%s; want the trimmed Secret values", got.AccessKey, got.SecretKey)
	}
}

func TestDuplicateTierIsDetected(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA, withObjects(secret("team-b", secretName, map[string]string{"accesskey": tierAK, "secretkey": tierSK})))
	older := h.store(tier(h.remote.TierURL(), withMeta("team-b", "cold-b", 0), withFinalizer()))
	younger := h.store(tier(h.remote.TierURL(), withMeta(ns, "cold", time.Minute)))
	h.expect(older, "create", "")

	writes := h.local.Writes()
	_, err := h.reconcile(younger)
	if reasonOf(err) != string(v1alpha1.ReasonDuplicateTier) {
		t.Fatalf("younger Tier: got %v, want DuplicateTier", err)
	}
	msg := younger.GetCondition(v1alpha1.TypeTierConflict).Message
	if !strings.Contains(msg, "A resource in another namespace already manages") || strings.Contains(msg, "team-b") || strings.Contains(msg, "cold-b") {
		t.Errorf("message must not name the owner in another namespace:\n%s", msg)
	}
	if got := get(younger, "Ready"); got != "False/TierConflict" {
		t.Errorf("Ready: got %s, want False/TierConflict", got)
	}
	if younger.Status.AtProvider != (v1alpha1.TierObservation{}) {
		t.Errorf("a duplicate must not see the live tier: status.atProvider %+v", younger.Status.AtProvider)
	}
	if n := h.local.Writes(); n != writes {
		t.Errorf("the duplicate made %d RustFS writes, want none", n-writes)
	}

	// A holder being deleted in another namespace hands nothing over: its
	// record passes only within its namespace, else it is Released for it
	// (rule 6). Under v0.2 the younger Tier adopted the tier here.
	if err := h.kube.Delete(ctx(t), older); err != nil || h.fetch(older).DeletionTimestamp == nil {
		t.Fatalf("cannot mark the owner deleted: %v", err)
	}
	h.expect(younger, "observe", string(v1alpha1.ReasonDuplicateTier))
}

// A duplicate of a Tier in its own namespace is told which one owns the
// tier name.
func TestDuplicateInTheSameNamespaceNamesTheOwner(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	older := h.store(tier(h.remote.TierURL(), withMeta(ns, "cold", 0)))
	younger := h.store(tier(h.remote.TierURL(), withMeta(ns, "cold-again", time.Minute)))
	h.expect(older, "create", "")
	h.expect(younger, "observe", string(v1alpha1.ReasonDuplicateTier))
	if msg := younger.GetCondition(v1alpha1.TypeTierConflict).Message; !strings.Contains(msg, "Tier cold already manages") {
		t.Errorf("message does not name the owner cold:\n%s", msg)
	}
}

// The oldest Tier never owns while it has no proven access: its
// ProviderConfig's credentials are refused, so a younger Tier registers the
// tier, and the older one writes nothing.
func TestTierWithoutProvenAccessNeverOwns(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA, withObjects(secret("team-b", secretName, map[string]string{"accesskey": tierAK, "secretkey": tierSK})))
	pc := clusterConfig("made-up", h.local.URL())[0].(*v1alpha1.ClusterProviderConfig)
	pc.Spec.Credentials.SecretRef.Name = "made-up"
	for _, o := range []client.Object{pc, secret(systemNS, "made-up", map[string]string{"accesskey": adminAK, "secretkey": "guessed"})} {
		if err := h.kube.Create(ctx(t), o); err != nil {
			t.Fatal(err)
		}
	}
	squatter := tier(h.remote.TierURL(), withMeta("team-b", "cold-b", 0))
	squatter.Spec.ProviderConfigReference.Name = "made-up"
	h.store(squatter)
	cr := h.store(tier(h.remote.TierURL(), withMeta(ns, "cold", time.Minute)))

	if step, err := h.reconcile(squatter); step != "observe" || err == nil || reasonOf(err) != "" {
		t.Fatalf("squatter: %s, %v; want a failed observe", step, err)
	}
	if rec := h.fetch(squatter).GetCustody(); rec != nil && rec.AccessProvenAt != nil {
		t.Errorf("squatter: proven access recorded after RustFS refused its credentials: %+v", rec)
	}
	h.expect(cr, "create", "")
	if live, ok := h.liveTier("COLD"); !ok || live.AccessKey != keyLabel(tierAK) {
		t.Errorf("tier COLD: %+v, %t; want it registered by the Tier with proven access", live, ok)
	}
}

func TestTierOnAnotherEndpointIsNotADuplicate(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA, withObjects(clusterConfig("other", "http://other-rustfs.example.com:9000")[0]))
	elsewhere := tier(h.remote.TierURL(), withMeta("team-b", "cold-b", 0))
	elsewhere.Spec.ProviderConfigReference.Name = "other"
	h.store(elsewhere)
	cr := h.store(tier(h.remote.TierURL(), withMeta(ns, "cold", time.Minute)))
	if step, err := h.reconcile(cr); step != "create" || err != nil {
		t.Errorf("reconcile: %s, %v; a Tier on another endpoint must not make this one a duplicate", step, err)
	}
}
