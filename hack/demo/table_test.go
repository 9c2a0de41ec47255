package main

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func TestExplain(t *testing.T) {
	conflict := xpv2.Condition{Type: v1alpha1.TypeTierConflict, Status: corev1.ConditionTrue, Reason: "TierConflict",
		Message: `RustFS refused to add tier "ARCHIVE" because prefix "p/" of remote bucket "tiers" already holds objects`}
	noConflict := xpv2.Condition{Type: v1alpha1.TypeTierConflict, Status: corev1.ConditionFalse, Reason: "NoConflict", Message: "fine"}
	syncedFalse := xpv2.ReconcileError(errString("cannot connect: ProviderConfig default not found"))
	cases := map[string]struct {
		reason        string
		ready, synced xpv2.Condition
		blocking      []xpv2.Condition
		want          string
	}{
		"Ready": {
			reason: "a Ready resource says what it is",
			ready:  xpv2.Available(), synced: xpv2.ReconcileSuccess(), blocking: []xpv2.Condition{conflict},
			want: "tier registered",
		},
		"ConflictWhileCreating": {
			reason: "issue 25: Ready=False Creating with no message, Synced=True and TierConflict True: the conflict explains it",
			ready:  xpv2.Creating(), synced: xpv2.ReconcileSuccess(), blocking: []xpv2.Condition{noConflict, conflict},
			want: "TierConflict TierConflict: " + conflict.Message,
		},
		"SyncedFalse": {
			reason: "a failed reconcile explains it",
			ready:  xpv2.Creating(), synced: syncedFalse, blocking: []xpv2.Condition{noConflict},
			want: "Synced=False ReconcileError: cannot connect: ProviderConfig default not found",
		},
		"ReadyMessage": {
			reason: "Ready's own reason and message, when nothing else says why",
			ready:  xpv2.Unavailable().WithMessage("bucket is being created"), synced: xpv2.ReconcileSuccess(),
			want: "Ready Unavailable: bucket is being created",
		},
		"CreatingNoMessage": {
			reason: "Ready's reason alone is still an explanation, not 'waiting for the provider'",
			ready:  xpv2.Creating(), synced: xpv2.ReconcileSuccess(),
			want: "Ready=False Creating: created, not yet observed",
		},
		"NoConditions": {
			reason: "only a resource with no condition waits for the provider",
			want:   "waiting for the provider: no condition yet",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := explain(tc.ready, tc.synced, tc.blocking, "tier registered"); got != tc.want {
				t.Errorf("%s\nwant %q\ngot  %q", tc.reason, tc.want, got)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
