package tenant

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
)

// An invalidCase is an invalid Tenant and the start of its fatal result:
// the entry and field it names.
type invalidCase struct {
	reason string
	xr     jsonMap
	want   string // the result message up to the first ": "
}

// invalidTierCases are invalid tiers, configuration references and XRs.
func invalidTierCases() map[string]invalidCase {
	return map[string]invalidCase{
		"DuplicateTierName":         {reason: "Two tiers with one name would compose one Tier twice.", xr: tenantXR(spec(withTiers(operatorTier(), operatorTier()))), want: "tiers[1].name"},
		"LowercaseTierName":         {reason: "RustFS requires uppercase tier names.", xr: tenantXR(spec(at("tiers", "name", "cold"))), want: "tiers[0].name"},
		"TierNameWithSlash":         {reason: "A name that needs percent-encoding could never have its credentials rotated.", xr: tenantXR(spec(at("tiers", "name", "COLD/1"))), want: "tiers[0].name"},
		"DotTierName":               {reason: "'..' is path navigation in the admin URL.", xr: tenantXR(spec(at("tiers", "name", ".."))), want: "tiers[0].name"},
		"ReservedTierName":          {reason: "STANDARD is a reserved storage class, in any case.", xr: tenantXR(spec(at("tiers", "name", "STANDARD"))), want: "tiers[0].name"},
		"TooLongTierName":           {reason: "Tier names are at most 64 characters.", xr: tenantXR(spec(at("tiers", "name", strings.Repeat("A", 65)))), want: "tiers[0].name"},
		"UnknownTierType":           {reason: "The type must be one RustFS supports.", xr: tenantXR(spec(at("tiers", "type", "Backblaze"))), want: "tiers[0].type"},
		"WasabiWithEndpoint":        {reason: "RustFS derives a Wasabi endpoint from the region.", xr: tenantXR(spec(at("tiers", "type", "Wasabi"), at("tiers", "region", "us-east-1"))), want: "tiers[0].endpoint"},
		"WasabiWithoutRegion":       {reason: "A Wasabi tier needs its region.", xr: tenantXR(spec(at("tiers", "type", "Wasabi"), at("tiers", "endpoint", ""), at("tiers", "region", ""))), want: "tiers[0].region"},
		"AuthorizedUserKeyNotGCS":   {reason: "Only a GCS tier reads an authorized-user JSON.", xr: tenantXR(spec(at("tiers", "credsSecret", jsonMap{"name": "s", "authorizedUserKey": "k"}))), want: "tiers[0].credsSecret.authorizedUserKey"},
		"AzureStorageEndpoint":      {reason: "RustFS's azure backend speaks S3, which Azure Storage does not.", xr: tenantXR(spec(at("tiers", "type", "Azure"), at("tiers", "endpoint", "https://acct.blob.core.windows.net"))), want: "tiers[0].endpoint"},
		"EndpointWithoutScheme":     {reason: "The endpoint must be an http(s) URL with a host.", xr: tenantXR(spec(at("tiers", "endpoint", "s3.example.com"))), want: "tiers[0].endpoint"},
		"MissingRemoteBucket":       {reason: "A tier needs a remote bucket.", xr: tenantXR(spec(at("tiers", "bucket", ""))), want: "tiers[0].bucket"},
		"MissingCredsSecret":        {reason: "A tier needs a credentials Secret.", xr: tenantXR(spec(at("tiers", "credsSecret", jsonMap{}))), want: "tiers[0].credsSecret.name"},
		"StorageClassOnMinIOTier":   {reason: "The remote storage class applies to S3 tiers only.", xr: tenantXR(spec(at("tiers", "type", "MinIO"), at("tiers", "storageClass", "GLACIER"))), want: "tiers[0].storageClass"},
		"UnknownProviderConfigKind": {reason: "Composed resources use a ProviderConfig or a ClusterProviderConfig.", xr: tenantXR(spec(withProviderConfig("Secret", "x"))), want: "providerConfigRef.kind"},
		"WrongFieldType":            {reason: "A spec that does not decode is fatal too.", xr: tenantXR(spec(rule("transition", jsonMap{"days": "seven", "storageClass": "COLD"}))), want: "cannot read the Tenant spec"},
		"XTenantWithoutClaim":       {reason: "A legacy XTenant has no namespace of its own; without a claim there is nowhere to compose.", xr: xtenantXR(spec(), nil), want: "XTenant tenant-a-x7k2p has no crossplane.io/claim-namespace label"},
	}
}

// invalidBucketCases are invalid buckets and lifecycles.
func invalidBucketCases() map[string]invalidCase {
	return map[string]invalidCase{
		"DuplicateBucketName":   {reason: "Two buckets with one name would compose one Bucket twice.", xr: tenantXR(spec(withBuckets(operatorBucket(), operatorBucket()))), want: "buckets[1].name"},
		"InvalidBucketName":     {reason: "Bucket names follow the S3 rules.", xr: tenantXR(spec(at("buckets", "name", "App_Data"))), want: "buckets[0].name"},
		"UnknownVersioning":     {reason: "Versioning is Enabled or Suspended.", xr: tenantXR(spec(at("buckets", "versioning", "On"))), want: "buckets[0].versioning"},
		"SuspendedObjectLock":   {reason: "Object lock requires versioning.", xr: tenantXR(spec(at("buckets", "objectLock", true), at("buckets", "versioning", "Suspended"))), want: "buckets[0].versioning"},
		"UnknownLifecycleState": {reason: "The state is Present or Absent.", xr: tenantXR(spec(at("buckets", "lifecycle", jsonMap{"state": "Gone"}))), want: "buckets[0].lifecycle.state"},
		"AbsentWithRules":       {reason: "Absent removes the configuration, so rules would be ignored.", xr: tenantXR(spec(at("buckets", "lifecycle", jsonMap{"state": "Absent", "rules": []any{operatorRule()}}))), want: "buckets[0].lifecycle.rules"},
		"PresentWithoutRules":   {reason: "An empty Present lifecycle would silently remove the configuration.", xr: tenantXR(spec(at("buckets", "lifecycle", jsonMap{"state": "Present"}))), want: "buckets[0].lifecycle.rules"},
		"MissingRuleID":         {reason: "A rule needs an id.", xr: tenantXR(spec(rule("id", nil))), want: "buckets[0].lifecycle.rules[0].id"},
		"DuplicateRuleID": {reason: "Rule ids are unique within a bucket.", xr: tenantXR(spec(at("buckets", "lifecycle", jsonMap{"rules": []any{operatorRule(), operatorRule()}}))),
			want: "buckets[0].lifecycle.rules[to-cold].id"},
	}
}

// invalidRuleCases are invalid rules.
func invalidRuleCases() map[string]invalidCase {
	return map[string]invalidCase{
		"TooLongRuleID":     {reason: "RustFS rejects rule ids over 255 bytes.", xr: tenantXR(spec(rule("id", strings.Repeat("é", 128)))), want: "buckets[0].lifecycle.rules[" + strings.Repeat("é", 128) + "].id"},
		"UnknownRuleStatus": {reason: "A rule is Enabled or Disabled.", xr: tenantXR(spec(rule("status", "On"))), want: "buckets[0].lifecycle.rules[to-cold].status"},
		"RuleWithoutAction": {reason: "RustFS rejects rules without an action.", xr: tenantXR(spec(rule("transition", nil))), want: "buckets[0].lifecycle.rules[to-cold]"},
		"TransitionAndList": {reason: "The singular and the list forms together are ambiguous.", xr: tenantXR(spec(rule("transitions", []any{jsonMap{"days": 1, "storageClass": "COLD"}}))), want: "buckets[0].lifecycle.rules[to-cold].transition"},
		"NoncurrentAndList": {reason: "The singular and the list forms together are ambiguous.",
			xr:   tenantXR(spec(rule("noncurrentVersionTransition", jsonMap{"noncurrentDays": 1, "storageClass": "COLD"}), rule("noncurrentVersionTransitions", []any{jsonMap{"noncurrentDays": 2, "storageClass": "COLD"}}))),
			want: "buckets[0].lifecycle.rules[to-cold].noncurrentVersionTransition"},
	}
}

// invalidTransitionCases are invalid transitions and storage classes.
func invalidTransitionCases() map[string]invalidCase {
	storageClass := func(sc string) specModifier {
		return rule("transition", jsonMap{"days": 7, "storageClass": sc})
	}
	return map[string]invalidCase{
		"DaysAndDate":           {reason: "A transition has exactly one of days or date.", xr: tenantXR(spec(rule("transition", jsonMap{"days": 7, "date": "2027-01-01", "storageClass": "COLD"}))), want: "buckets[0].lifecycle.rules[to-cold].transition"},
		"NeitherDaysNorDate":    {reason: "A transition has exactly one of days or date.", xr: tenantXR(spec(rule("transition", jsonMap{"storageClass": "COLD"}))), want: "buckets[0].lifecycle.rules[to-cold].transition"},
		"NegativeDays":          {reason: "Days are 0 or more.", xr: tenantXR(spec(rule("transition", jsonMap{"days": -1, "storageClass": "COLD"}))), want: "buckets[0].lifecycle.rules[to-cold].transition.days"},
		"DateNotMidnight":       {reason: "RustFS accepts only midnight UTC.", xr: tenantXR(spec(rule("transition", jsonMap{"date": "2027-01-01T12:00:00Z", "storageClass": "COLD"}))), want: "buckets[0].lifecycle.rules[to-cold].transition.date"},
		"DateNotInCalendar":     {reason: "February has no 30th.", xr: tenantXR(spec(rule("transition", jsonMap{"date": "2027-02-30", "storageClass": "COLD"}))), want: "buckets[0].lifecycle.rules[to-cold].transition.date"},
		"BadExpirationDate":     {reason: "Expiration dates are checked like transition dates.", xr: tenantXR(spec(rule("expiration", jsonMap{"date": "2027-13-01"}))), want: "buckets[0].lifecycle.rules[to-cold].expiration.date"},
		"LowercaseStorageClass": {reason: "A storage class that is not a tier name is neither this Tenant's tier nor any other.", xr: tenantXR(spec(storageClass("cold"))), want: "buckets[0].lifecycle.rules[to-cold].transition.storageClass"},
		"ReservedStorageClass":  {reason: "STANDARD is not a tier.", xr: tenantXR(spec(storageClass("STANDARD"))), want: "buckets[0].lifecycle.rules[to-cold].transition.storageClass"},
		"MissingStorageClass":   {reason: "A transition must name a tier.", xr: tenantXR(spec(storageClass(""))), want: "buckets[0].lifecycle.rules[to-cold].transition.storageClass"},
		"BadListStorageClass": {reason: "Entries of a transitions list are named by index.", xr: tenantXR(spec(rule("transition", nil), rule("transitions", []any{jsonMap{"days": 1, "storageClass": "COLD"}, jsonMap{"days": 9, "storageClass": "Glacier"}}))),
			want: "buckets[0].lifecycle.rules[to-cold].transitions[1].storageClass"},
		"BadNoncurrentStorageClass": {reason: "Noncurrent transitions name tiers too.", xr: tenantXR(spec(rule("noncurrentVersionTransition", jsonMap{"noncurrentDays": 1, "storageClass": "a b"}))),
			want: "buckets[0].lifecycle.rules[to-cold].noncurrentVersionTransition.storageClass"},
	}
}

func TestInvalidInputIsFatal(t *testing.T) {
	cases := invalidTierCases()
	for _, more := range []map[string]invalidCase{invalidBucketCases(), invalidRuleCases(), invalidTransitionCases()} {
		maps.Copy(cases, more)
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rsp := runRequest(t, tc.xr, nil)
			var got []string
			for _, r := range rsp.GetResults() {
				if r.GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
					t.Errorf("%s\nresult %q has severity %s, want fatal", tc.reason, r.GetMessage(), r.GetSeverity())
				}
				got = append(got, strings.SplitN(r.GetMessage(), ": ", 2)[0])
			}
			if diff := cmp.Diff([]string{tc.want}, got); diff != "" {
				t.Errorf("%s\nfatal results (up to the first ': '): -want +got:\n%s\nmessages: %v", tc.reason, diff, rsp.GetResults())
			}
			if n := len(rsp.GetDesired().GetResources()); n != 0 {
				t.Errorf("%s\ninvalid input rendered %d composed resources, want none", tc.reason, n)
			}
		})
	}
}
