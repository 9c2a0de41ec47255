package options

import (
	"testing"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

func TestObserveOnly(t *testing.T) {
	cases := map[string]struct {
		policies xpv2.ManagementPolicies
		want     bool
	}{
		"Observe":               {xpv2.ManagementPolicies{xpv2.ManagementActionObserve}, true},
		"ObserveLateInitialize": {xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionLateInitialize}, true},
		"RetainDefault":         {xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}, false},
		"ObserveUpdate":         {xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionUpdate}, false},
		"ObserveDelete":         {xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionDelete}, false},
		"All":                   {xpv2.ManagementPolicies{xpv2.ManagementActionAll}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := &v1alpha1.Bucket{}
			b.SetManagementPolicies(tc.policies)
			if got := ObserveOnly(b); got != tc.want {
				t.Errorf("ObserveOnly(%v): want %t, got %t", tc.policies, tc.want, got)
			}
			var seen rustfs.Config
			_, _ = ReadOnly(b, func(c rustfs.Config) (int, error) { seen = c; return 0, nil })(rustfs.Config{})
			if seen.ReadOnly != tc.want {
				t.Errorf("ReadOnly(%v): want a client with ReadOnly %t, got %t", tc.policies, tc.want, seen.ReadOnly)
			}
		})
	}
}
