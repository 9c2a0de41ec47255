package rustfs

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// How RustFS GA and rc answers are classified (docs/rustfs-wire.md §1.2,
// §1.3, §4.3, §13.4, §13.5): passing states are transient, answers that
// may mean either are ambiguous, and only the rest block.
func TestGAClassification(t *testing.T) {
	type want struct{ transient, ambiguous, invalidConfig, inUse bool }
	cases := map[string]struct {
		reason string
		err    *APIError
		want   want
	}{
		"GAInUse": {reason: "GA's 409 is also a timeout, a drain or a pending recovery.",
			err: &APIError{Status: 409, Code: "XMinioAdminTierBackendInUse", Message: "Specified remote tier is already in use"}, want: want{ambiguous: true, inUse: true}},
		"RCInUse": {reason: "rc's 500 is also a timeout.",
			err: &APIError{Status: 500, Code: "TierNameBackendInUse!"}, want: want{ambiguous: true, inUse: true}},
		"GANotEmpty": {reason: "GA's 400 not-empty on remove says only that.",
			err: &APIError{Status: 400, Code: "XMinioAdminTierBackendNotEmpty"}, want: want{inUse: true}},
		"GAPrepareFailed": {reason: "A failed peer prepare passes.",
			err: &APIError{Status: 400, Code: "InvalidArgument", Message: "Remote tier mutation prepare failed: rpc"}, want: want{transient: true}},
		"GACommitFailed": {reason: "A failed peer commit passes.",
			err: &APIError{Status: 400, Code: "InvalidArgument", Message: "Remote tier mutation commit failed: rpc"}, want: want{transient: true}},
		"GAReplay": {reason: "A failed committed replay passes.",
			err: &APIError{Status: 400, Code: "InvalidArgument", Message: "Remote tier mutation committed replay failed: x"}, want: want{transient: true}},
		"GAReferenceProof": {reason: "A failed reference proof passes.",
			err: &APIError{Status: 400, Code: "InvalidArgument", Message: "Remote tier reference proof failed: walk"}, want: want{transient: true}},
		"GABeingReplaced": {reason: "A replacement in progress passes.",
			err: &APIError{Status: 400, Code: "InvalidArgument", Message: "Remote tier configuration is being replaced"}, want: want{transient: true}},
		"RCPrepareFailed": {reason: "rc sends the same states as 500 TierAddFailed.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Remote tier mutation prepare failed: x"}, want: want{transient: true}},
		"SaveFailed": {reason: "A failed config save is a storage hiccup.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier save failed"}, want: want{transient: true}},
		"EditSaveFailed": {reason: "The same on edit.",
			err: &APIError{Status: 500, Code: "TierEditFailed", Message: "tier save failed"}, want: want{transient: true}},
		"EditTimedOut": {reason: "A GA edit whose probe timed out is 500 TierEditFailed with the timeout.",
			err: &APIError{Status: 500, Code: "TierEditFailed", Message: "tier edit failed. Timed out validating the remote tier mutation"}, want: want{transient: true}},
		"Uncertain": {reason: "An uncertain probe is wrong keys or a silent remote.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Remote tier probe outcome is uncertain; cleanup is incomplete"}, want: want{ambiguous: true, invalidConfig: true}},
		"PermErr": {reason: "A refused probe blocks until an input changes.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Tier Perm Err"}, want: want{invalidConfig: true}},
		"GAUnableToSetup": {reason: "A configuration RustFS cannot set up blocks.",
			err: &APIError{Status: 400, Code: "InvalidArgument", Message: "Unable to setup remote tier, check tier configuration"}, want: want{invalidConfig: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := want{IsTransient(tc.err), IsAmbiguous(tc.err), IsInvalidConfig(tc.err), IsBackendInUse(tc.err)}
			if got != tc.want {
				t.Errorf("%s\n%v: got %+v, want %+v", tc.reason, tc.err, got, tc.want)
			}
		})
	}
}

// rc's answers that RustFS could not reach the remote are transient, as
// the seed retries every 5xx; the same text with a detail is the backend
// refusing the settings before any remote call, which blocks; GA's
// credential checks are configuration refusals (docs/rustfs-wire.md §2,
// §4.1, §4.3, §13.5).
func TestRemoteAndCredentialAnswersClassification(t *testing.T) {
	type want struct{ transient, ambiguous, invalidConfig, inUse bool }
	cases := map[string]struct {
		reason string
		err    *APIError
		want   want
	}{
		"RCValidateFailed": {reason: "rc's bare invalid-config message is a failed remote check (Wasabi's versioning) that may pass, as the seed retries every 5xx.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Unable to setup remote tier, check tier configuration"}, want: want{transient: true}},
		"RCEditValidateFailed": {reason: "The same on an rc edit.",
			err: &APIError{Status: 500, Code: "TierEditFailed", Message: "tier edit failed. Unable to setup remote tier, check tier configuration"}, want: want{transient: true}},
		"RCConstructorRefused": {reason: "With a detail, rc's backend refused the settings before any remote call: retrying cannot help.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Unable to setup remote tier, check tier configuration: Invalid credentials JSON: missing field `client_secret`"}, want: want{invalidConfig: true}},
		"RCRemoteUnreachable": {reason: "rc's in-use listing could not connect to the remote: it may pass.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Tier Perm Err.client error (Connect)"}, want: want{transient: true}},
		"RCKeysRefused": {reason: "rc's in-use listing answered 403: the keys are wrong.",
			err: &APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Tier Perm Err.remote tier request failed with status 403 Forbidden: InvalidAccessKeyId"}, want: want{invalidConfig: true}},
		"GAGCSCredentialKind": {reason: "GA's credential check refuses the GCS JSON's kind.",
			err: &APIError{Status: 400, Code: "InvalidArgument", Message: "GCS credentials must describe a service account"}, want: want{invalidConfig: true}},
		"GAGCSStaticKeysOnEdit": {reason: "GA refuses static keys on a GCS edit: the new credentials are refused.",
			err: &APIError{Status: 500, Code: "TierEditFailed", Message: "tier edit failed. Static access and secret keys cannot be used with a GCS tier"}, want: want{invalidConfig: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := want{IsTransient(tc.err), IsAmbiguous(tc.err), IsInvalidConfig(tc.err), IsBackendInUse(tc.err)}
			if got != tc.want {
				t.Errorf("%s\n%v: got %+v, want %+v", tc.reason, tc.err, got, tc.want)
			}
		})
	}
}

// A redirect or an oversized body does not change by itself: neither is
// transient or ambiguous.
func TestEdgeErrorsAreNotRetried(t *testing.T) {
	for name, err := range map[string]error{"Redirect": &RedirectError{Status: 307}, "BodyTooLarge": errBodyTooLarge} {
		if IsTransient(err) || IsAmbiguous(err) {
			t.Errorf("%s: transient or ambiguous; want neither: it does not change by itself", name)
		}
	}
}

// Against the GA emulator: a remote that does not answer within RustFS's
// own validation deadline (scaled to 200 ms) gets 409 "already in use" on
// add, which the client reports as ambiguous, not as a plain conflict; the
// GA 400s of passing cluster states are transient, and an add succeeds once
// they have passed.
func TestGAAnswersFromTheEmulator(t *testing.T) {
	p := newPair(t, rustfstest.ModeGA, rustfstest.WithProbeTimeout(200*time.Millisecond))
	p.remote.InjectFault(rustfstest.RoutePutObject, rustfstest.Fault{Latency: time.Second})
	err := p.client.AddTier(context.Background(), p.tier("COLD"), false)
	if e, ok := apiError(err); !ok || e.Status != http.StatusConflict || !IsAmbiguous(err) || IsTransient(err) {
		t.Errorf("add against a silent remote: %v; want GA's 409, ambiguous and not transient", err)
	}
	// A fresh pair at RustFS's own probe deadline: at 200 ms a loaded
	// machine's probe can miss it again, and the add below would get 409.
	p = newPair(t, rustfstest.ModeGA)
	for _, msg := range []string{"Remote tier mutation commit failed: peer", "Remote tier reference proof failed: x", "Remote tier configuration is being replaced"} {
		p.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Status: http.StatusBadRequest, Code: "InvalidArgument", Message: msg, Times: 1})
		if err := p.client.AddTier(context.Background(), p.tier("COLD"), false); !IsTransient(err) || IsInvalidConfig(err) {
			t.Errorf("GA 400 %q: %v; want transient", msg, err)
		}
	}
	if err := p.client.AddTier(context.Background(), p.tier("COLD"), false); err != nil {
		t.Errorf("add after the faults cleared: %v", err)
	}
}
