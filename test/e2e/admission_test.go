package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The documented admission messages (the CEL rules of apis/v1alpha1).
const (
	msgBucketQuota      = "quota must be a number of bytes from 1 to 1Ei"
	msgTierNameChars    = "name may contain only A-Z, 0-9, '_', '-' and '.'"
	msgTierNameReserved = "name must not be STANDARD or REDUCED_REDUNDANCY (in any case)"
	msgTierNameDots     = "name must not be '.' or '..'"
	msgTierPolicies     = "managementPolicies must not contain Delete or '*': tiers are Retain-only"
	msgLCPolicies       = "managementPolicies must not contain Delete or '*': lifecycle rules are Retain-only"
	msgDaysOrDate       = "set exactly one of days or date"
	msgNeedsTier        = "set storageClass, tierRef or tierSelector"
	msgNeedsAction      = "a rule needs at least one action"
	msgDeleteMarker     = "expiredObjectDeleteMarker cannot be combined with days or date"
	msgMidnight         = "date must be midnight UTC"
	msgOneFilter        = "filter takes only one of prefix, tag, objectSizeGreaterThan, objectSizeLessThan or and"
	msgTierRefLocal     = "tierRef must name a Tier in the same namespace and must not set policy.resolution Optional"
	msgAllVersions      = "expiredObjectAllVersions requires days (1 or more) and no date"
	msgDuplicateRuleID  = "Duplicate value"
)

// An admissionCase is an object the API server must reject with a
// documented message.
type admissionCase struct {
	reason string
	obj    client.Object
	want   string
}

func TestAdmissionRejectsInvalidTierNames(t *testing.T) {
	testenv.Skip(t)
	expectRejected(t, tierNameCases("default"))
}

func TestAdmissionRejectsDeleteInManagementPolicies(t *testing.T) {
	testenv.Skip(t)
	expectRejected(t, policyCases("default"))
}

func TestAdmissionRejectsInvalidLifecycleRules(t *testing.T) {
	testenv.Skip(t)
	expectRejected(t, transitionCases("default"))
	expectRejected(t, ruleCases("default"))
}

// expectRejected creates each case's object in a dry run and checks that
// the API server rejects it with the case's message.
func expectRejected(t *testing.T, cases map[string]admissionCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := env.Client.Create(context.Background(), tc.obj, client.DryRunAll)
			if !apierrors.IsInvalid(err) {
				t.Fatalf("%s\nCreate(dry run): want an Invalid error containing %q, got %v", tc.reason, tc.want, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s\nCreate(dry run): want the message %q, got %v", tc.reason, tc.want, err)
			}
		})
	}
}

// tierNameCases break the tier name rules.
func tierNameCases(ns string) map[string]admissionCase {
	return map[string]admissionCase{
		"LowercaseTierName": {
			reason: "RustFS requires uppercase tier names",
			obj:    tier(ns, "lower", "cold"), want: msgTierNameChars,
		},
		"MixedCaseTierName": {
			reason: "one lowercase letter is enough to be rejected",
			obj:    tier(ns, "mixed", "COLd"), want: msgTierNameChars,
		},
		"PercentEncodedTierName": {
			reason: "a name that needs percent-encoding could never have its credentials rotated",
			obj:    tier(ns, "space", "COLD TIER"), want: msgTierNameChars,
		},
		"ReservedTierNameStandard": {
			reason: "STANDARD is a reserved storage class",
			obj:    tier(ns, "standard", "STANDARD"), want: msgTierNameReserved,
		},
		"ReservedTierNameAnyCase": {
			reason: "reserved names are reserved in any case",
			obj:    tier(ns, "rr", "reduced_redundancy"), want: msgTierNameReserved,
		},
		"DotDotTierName": {
			reason: "'..' is path navigation in the admin URL",
			obj:    tier(ns, "dots", ".."), want: msgTierNameDots,
		},
	}
}

// policyCases put Delete or * in the management policies of each kind.
func policyCases(ns string) map[string]admissionCase {
	return map[string]admissionCase{
		"TierDeletePolicy": {
			reason: "tiers are Retain-only",
			obj:    tier(ns, "delete", "COLD", withTierPolicies(xpv2.ManagementActionObserve, xpv2.ManagementActionDelete)), want: msgTierPolicies,
		},
		"TierAllPolicy": {
			reason: "'*' includes Delete",
			obj:    tier(ns, "all", "COLD", withTierPolicies(xpv2.ManagementActionAll)), want: msgTierPolicies,
		},
		"BucketZeroQuota": {
			reason: "RustFS reads a quota of 0 as no limit",
			obj: bucket(ns, "data", func(b *v1alpha1.Bucket) {
				q := resource.MustParse("0")
				b.Spec.ForProvider.Quota = &q
			}), want: msgBucketQuota,
		},
		"BucketLifecycleAllPolicy": {
			reason: "lifecycle rules are Retain-only",
			obj:    lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", expireAfter(1))}, withLifecyclePolicies(xpv2.ManagementActionAll)),
			want:   msgLCPolicies,
		},
	}
}

// transitionCases are transitions RustFS would refuse or that cannot name a tier.
func transitionCases(ns string) map[string]admissionCase {
	optional := xpv2.ResolutionPolicyOptional
	return map[string]admissionCase{
		"TransitionWithDaysAndDate": {
			reason: "RustFS requires exactly one of Days or Date",
			obj: lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", withTransition(v1alpha1.Transition{
				Days: ptr(int32(1)), Date: "2030-01-01", StorageClass: "COLD",
			}))}),
			want: msgDaysOrDate,
		},
		"TransitionWithoutTier": {
			reason: "a transition needs the name of a registered tier",
			obj:    lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", withTransition(v1alpha1.Transition{Days: ptr(int32(1))}))}),
			want:   msgNeedsTier,
		},
		"DateNotMidnight": {
			reason: "RustFS rejects dates that are not midnight UTC",
			obj: lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", withTransition(v1alpha1.Transition{
				Date: "2030-01-01T12:00:00Z", StorageClass: "COLD",
			}))}),
			want: msgMidnight,
		},
		"TierRefToAnotherNamespace": {
			reason: "a lifecycle may only use Tiers of its own namespace",
			obj: lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", withTransition(v1alpha1.Transition{
				Days: ptr(int32(1)), TierRef: &xpv2.NamespacedReference{Name: "cold", Namespace: "other"},
			}))}),
			want: msgTierRefLocal,
		},
		"OptionalTierRef": {
			reason: "an optional reference would silently drop the storage class",
			obj: lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", withTransition(v1alpha1.Transition{
				Days: ptr(int32(1)), TierRef: &xpv2.NamespacedReference{Name: "cold", Policy: &xpv2.Policy{Resolution: &optional}},
			}))}),
			want: msgTierRefLocal,
		},
	}
}

// ruleCases are rules RustFS would refuse.
func ruleCases(ns string) map[string]admissionCase {
	return map[string]admissionCase{
		"RuleWithoutAction": {
			reason: "RustFS rejects rules without an action",
			obj:    lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a")}), want: msgNeedsAction,
		},
		"DuplicateRuleIDs": {
			reason: "rule ids are the list map key",
			obj:    lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", expireAfter(1)), rule("a", expireAfter(2))}),
			want:   msgDuplicateRuleID,
		},
		"DeleteMarkerWithDays": {
			reason: "RustFS rejects expiredObjectDeleteMarker with days",
			obj: lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", withExpiration(v1alpha1.LifecycleExpiration{
				Days: ptr(int32(1)), ExpiredObjectDeleteMarker: ptr(true),
			}))}),
			want: msgDeleteMarker,
		},
		"AllVersionsWithoutDays": {
			reason: "expiredObjectAllVersions needs days",
			obj: lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", withExpiration(v1alpha1.LifecycleExpiration{
				Date: "2030-01-01", ExpiredObjectAllVersions: ptr(true),
			}))}),
			want: msgAllVersions,
		},
		"FilterWithPrefixAndTag": {
			reason: "S3 filters take one condition unless combined with and",
			obj: lifecycle(ns, "lc", "data", []v1alpha1.LifecycleRule{rule("a", expireAfter(1), withFilter(v1alpha1.LifecycleFilter{
				Prefix: "logs/", Tag: &v1alpha1.LifecycleTag{Key: "k", Value: "v"},
			}))}),
			want: msgOneFilter,
		},
	}
}

// A policied object has management policies.
type policied interface {
	client.Object
	GetManagementPolicies() xpv2.ManagementPolicies
}

func TestAdmissionDefaultsManagementPoliciesToRetainOnly(t *testing.T) {
	testenv.Skip(t)
	const ns = "default"
	want := xpv2.ManagementPolicies{
		xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize,
	}
	cases := map[string]struct {
		reason string
		obj    policied
	}{
		"Tier": {
			reason: "a valid Tier is admitted and gets the Retain-only policy set",
			obj:    tier(ns, "cold", "COLD_1.A-B"),
		},
		"Bucket": {
			reason: "a Bucket is admitted and gets the Retain-only policy set",
			obj:    bucket(ns, "data"),
		},
		"BucketLifecycle": {
			reason: "a lifecycle with a days: 0 transition and a tierRef is admitted and gets the Retain-only policy set",
			obj:    lifecycle(ns, "data", "data", []v1alpha1.LifecycleRule{rule("to-cold", toTier(0, "COLD")), rule("by-ref", toTierRef(7, "cold"))}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if err := env.Client.Create(context.Background(), tc.obj, client.DryRunAll); err != nil {
				t.Fatalf("%s\nCreate(dry run): %v", tc.reason, err)
			}
			if diff := cmp.Diff(want, tc.obj.GetManagementPolicies()); diff != "" {
				t.Errorf("%s\nmanagementPolicies: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAdmissionRejectsChangesToImmutableFields(t *testing.T) {
	testenv.Skip(t)
	ns := newNamespace(t)
	cases := map[string]struct {
		reason string
		obj    client.Object
		change func(client.Object)
		want   string
	}{
		"TierName": {
			reason: "RustFS cannot rename a tier",
			obj:    tier(ns, "cold", "COLD"),
			change: func(o client.Object) { o.(*v1alpha1.Tier).Spec.ForProvider.Name = "WARM" },
			want:   "name is immutable",
		},
		"BucketObjectLock": {
			reason: "S3 enables object lock only at creation",
			obj:    bucket(ns, "locked", withObjectLock()),
			change: func(o client.Object) { o.(*v1alpha1.Bucket).Spec.ForProvider.ObjectLock = false },
			want:   "objectLock is immutable",
		},
		"LifecycleBucket": {
			reason: "a BucketLifecycle belongs to one bucket",
			obj:    lifecycle(ns, "data", "data", []v1alpha1.LifecycleRule{rule("a", expireAfter(1))}),
			change: func(o client.Object) { o.(*v1alpha1.BucketLifecycle).Spec.ForProvider.Bucket = "other" },
			want:   "bucket is immutable once set",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if err := env.Client.Create(ctx, tc.obj); err != nil {
				t.Fatalf("%s\nCreate: %v", tc.reason, err)
			}
			t.Cleanup(func() { _ = env.Client.Delete(ctx, tc.obj) })
			tc.change(tc.obj)
			err := env.Client.Update(ctx, tc.obj)
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s\nUpdate: want an Invalid error containing %q, got %v", tc.reason, tc.want, err)
			}
		})
	}
}
