package tier

import (
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

func TestAddFailureIsClassifiedWithANextAction(t *testing.T) {
	cases := map[string]struct {
		reason        string
		err           error
		wantReason    xpv2.ConditionReason
		wantAmbiguous bool
		wantNext      string
	}{
		"InUseGA": {reason: "GA's 409 may also be a timeout or active transitions (docs/rustfs-wire.md §13.4), so it lapses.",
			err:        &rustfs.APIError{Status: 409, Code: "XMinioAdminTierBackendInUse"},
			wantReason: v1alpha1.ReasonBackendInUse, wantAmbiguous: true, wantNext: "once per poll interval"},
		"UncertainProbe": {reason: "An uncertain probe is wrong keys or a remote that did not answer, so it lapses.",
			err:        &rustfs.APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Remote tier probe outcome is uncertain; cleanup is incomplete"},
			wantReason: v1alpha1.ReasonTierApplyFailed, wantAmbiguous: true, wantNext: "once per poll interval"},
		"InUseRC": {reason: "RC's 500 may also be a 30 s timeout, so it lapses.",
			err:        &rustfs.APIError{Status: 500, Code: "TierNameBackendInUse!"},
			wantReason: v1alpha1.ReasonBackendInUse, wantAmbiguous: true, wantNext: "once per poll interval"},
		"AccessDenied": {reason: "The ProviderConfig's identity may not manage tiers.",
			err:        errors.Wrap(&rustfs.APIError{Status: 403, Code: "AccessDenied"}, "cannot add tier"),
			wantReason: v1alpha1.ReasonTierApplyFailed, wantNext: "admin:SetTier"},
		"InvalidConfigGA": {reason: "GA refuses a tier it cannot set up.",
			err:        &rustfs.APIError{Status: 400, Code: "InvalidArgument", Message: "Unable to setup remote tier, check tier configuration"},
			wantReason: v1alpha1.ReasonTierApplyFailed, wantNext: "that the remote bucket exists"},
		"PermErrRC": {reason: "RC reports remote failures as Tier Perm Err.",
			err:        &rustfs.APIError{Status: 500, Code: "TierAddFailed", Message: "tier add failed. Tier Perm Err.x"},
			wantReason: v1alpha1.ReasonTierApplyFailed, wantNext: "Secret team-a/cold-creds"},
		"Redirect": {reason: "A redirect is never followed and does not pass by itself.",
			err:        errors.Wrap(&rustfs.RedirectError{Status: 307, Host: "elsewhere:9000"}, "cannot add tier"),
			wantReason: v1alpha1.ReasonTierApplyFailed, wantNext: "set its spec.endpoint to the RustFS server itself"},
		"NotUppercase": {reason: "A name RustFS refuses needs a new Tier.",
			err:        &rustfs.APIError{Status: 500, Code: "TierNameNotUppercase"},
			wantReason: v1alpha1.ReasonTierApplyFailed, wantNext: "another spec.forProvider.name"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			reason, msg, ambiguous := addFailure(tier("http://r"), tc.err)
			if reason != tc.wantReason || ambiguous != tc.wantAmbiguous || !strings.Contains(msg, tc.wantNext) {
				t.Errorf("%s\naddFailure = %s, ambiguous %t, %q; want %s, ambiguous %t, a message containing %q",
					tc.reason, reason, ambiguous, msg, tc.wantReason, tc.wantAmbiguous, tc.wantNext)
			}
			if !strings.HasSuffix(msg, nextNote(ambiguous)) && reason == v1alpha1.ReasonTierApplyFailed {
				t.Errorf("%s\nmessage does not say when the add is retried: %q", tc.reason, msg)
			}
		})
	}
}
