package tier

import (
	"errors"
	"net/http"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// A blocked Tier's error shows the condition message and unwraps to what
// caused the block, so a caller can still classify it.
func TestBlockedErrorsKeepTheirCause(t *testing.T) {
	t.Run("RefusedAdd", func(t *testing.T) {
		h := newHarness(t, rustfstest.ModeGA)
		h.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Status: http.StatusBadRequest, Code: "InvalidArgument", Message: "refused"})
		step, err := h.reconcile(h.store(tier(h.remote.TierURL())))
		if step != "create" || reasonOf(err) != string(v1alpha1.ReasonTierApplyFailed) {
			t.Fatalf("reconcile: got %s, %v; want a blocked create", step, err)
		}
		var ae *rustfs.APIError
		if !errors.As(err, &ae) || ae.Code != "InvalidArgument" {
			t.Errorf("errors.As(%v, *rustfs.APIError): got %v, want RustFS's InvalidArgument", err, ae)
		}
	})
	t.Run("MissingSecret", func(t *testing.T) {
		h := newHarness(t, rustfstest.ModeGA)
		_, err := h.reconcile(h.store(tier(h.remote.TierURL(), withSecret("nope"))))
		if reasonOf(err) != string(v1alpha1.ReasonTierSecretInvalid) || !connection.IsSecretError(err) {
			t.Errorf("reconcile: got %v, want a blocked TierSecretInvalid that unwraps to the Secret error", err)
		}
	})
}
