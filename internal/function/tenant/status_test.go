package tenant

import (
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// driftMessage is what the Tier controller says about a conflicting tier.
const driftMessage = `Tier "COLD" exists in RustFS with settings RustFS cannot change on a registered tier: spec.forProvider.prefix is "rustfs-a/" but RustFS has "other/". ` +
	"The provider never removes a tier: set these fields to the live values, or use a new spec.forProvider.name for a new tier."

// conflictingTier is an observed Tier in TierConflict, as the Tier
// controller reports it.
func conflictingTier() jsonMap {
	return observedMR("Tier", "tenant-a-tier-cold", jsonMap{}, conditions(
		cond("Ready", "False", "TierConflict", driftMessage),
		cond("Synced", "False", "ReconcileError", "cannot apply tier: blocked"),
		cond("TierConflict", "True", "ImmutableFieldDrift", driftMessage),
	))
}

// A statusCase is a Tenant spec, its observed composed resources and the
// status rows they give.
type statusCase struct {
	reason   string
	spec     jsonMap
	observed map[string]jsonMap
	want     jsonMap
}

// waiting is the BucketLifecycle's message while its Tier is not Ready.
const waiting = "waiting for Tier tenant-a-tier-cold (tier COLD) to become Ready"

// conflictAndReadyCases cover a Tier in conflict and all Ready.
func conflictAndReadyCases() map[string]statusCase {
	return map[string]statusCase{
		"TierInConflict": {
			reason: "A Tier in conflict shows its TierConflict reason and message; the bucket row shows why its lifecycle waits.",
			spec:   spec(),
			observed: map[string]jsonMap{
				"tier-COLD":       conflictingTier(),
				"bucket-app-data": readyMR("Bucket", "tenant-a-bucket-app-data"),
				"lifecycle-app-data": observedMR("BucketLifecycle", "tenant-a-lifecycle-app-data", jsonMap{}, conditions(
					cond("Ready", "False", "WaitingForReference", waiting), cond("Synced", "False", "WaitingForReference", waiting))),
			},
			want: jsonMap{
				"tiers":   []any{jsonMap{"name": "COLD", "ready": false, "synced": false, "reason": "ImmutableFieldDrift", "message": driftMessage}},
				"buckets": []any{jsonMap{"name": "app-data", "ready": false, "synced": false, "reason": "WaitingForReference", "message": waiting}},
			},
		},
		"AllReady": {
			reason: "Ready and Synced resources give ready rows with the Ready reason.",
			spec:   spec(),
			observed: map[string]jsonMap{
				"tier-COLD":          readyMR("Tier", "tenant-a-tier-cold"),
				"bucket-app-data":    readyMR("Bucket", "tenant-a-bucket-app-data"),
				"lifecycle-app-data": readyMR("BucketLifecycle", "tenant-a-lifecycle-app-data"),
			},
			want: jsonMap{
				"tiers":   []any{jsonMap{"name": "COLD", "ready": true, "synced": true, "reason": "Available"}},
				"buckets": []any{jsonMap{"name": "app-data", "ready": true, "synced": true, "reason": "Available"}},
			},
		},
		"UsageAndQuota": {
			reason: "A bucket row shows the usage and quota its Bucket reports.",
			spec:   spec(),
			observed: map[string]jsonMap{
				"tier-COLD":          readyMR("Tier", "tenant-a-tier-cold"),
				"bucket-app-data":    withAtProvider(readyMR("Bucket", "tenant-a-bucket-app-data"), jsonMap{"usage": "600Mi", "quota": "1Gi"}),
				"lifecycle-app-data": readyMR("BucketLifecycle", "tenant-a-lifecycle-app-data"),
			},
			want: jsonMap{
				"tiers": []any{jsonMap{"name": "COLD", "ready": true, "synced": true, "reason": "Available"}},
				"buckets": []any{jsonMap{"name": "app-data", "ready": true, "synced": true, "reason": "Available",
					"usage": "600Mi", "quota": "1Gi"}},
			},
		},
	}
}

// withAtProvider sets an observed resource's status.atProvider.
func withAtProvider(mr jsonMap, at jsonMap) jsonMap {
	mr["status"].(jsonMap)["atProvider"] = at
	return mr
}

// failureCases cover specific failures, degradation and missing conditions.
func failureCases() map[string]statusCase {
	return map[string]statusCase{
		"SpecificFailureBeatsSynced": {
			reason: "A specific Ready=False reason explains more than the Synced=False error it causes.",
			spec:   spec(withTiers(), withBuckets(jsonMap{"name": "app-data"})),
			observed: map[string]jsonMap{
				"bucket-app-data": observedMR("Bucket", "tenant-a-bucket-app-data", jsonMap{}, conditions(
					cond("Ready", "False", "BucketConflict", "bucket app-data exists in region us-east-1, spec says eu-west-1"),
					cond("Synced", "False", "ReconcileError", "blocked"))),
			},
			want: jsonMap{"buckets": []any{jsonMap{"name": "app-data", "ready": false, "synced": false, "reason": "BucketConflict", "message": "bucket app-data exists in region us-east-1, spec says eu-west-1"}}},
		},
		"DegradedLifecycle": {
			reason: "A Ready lifecycle whose fields RustFS dropped shows LifecycleDegraded.",
			spec:   spec(withTiers()),
			observed: map[string]jsonMap{
				"bucket-app-data": readyMR("Bucket", "tenant-a-bucket-app-data"),
				"lifecycle-app-data": observedMR("BucketLifecycle", "tenant-a-lifecycle-app-data", jsonMap{}, conditions(
					cond("Ready", "True", "Available", ""), cond("Synced", "True", "ReconcileSuccess", ""),
					cond("LifecycleDegraded", "True", "FieldsDropped", "RustFS dropped rules[to-cold].delMarkerExpiration"))),
			},
			want: jsonMap{"buckets": []any{jsonMap{"name": "app-data", "ready": true, "synced": true, "reason": "FieldsDropped", "message": "RustFS dropped rules[to-cold].delMarkerExpiration"}}},
		},
		"NoConditionsYet": {
			reason: "A created resource without conditions is waiting to become Ready.",
			spec:   spec(withBuckets()),
			observed: map[string]jsonMap{
				"tier-COLD": observedMR("Tier", "tenant-a-tier-cold", jsonMap{}, jsonMap{}),
			},
			want: jsonMap{"tiers": []any{jsonMap{"name": "COLD", "ready": false, "synced": false, "reason": "Creating", "message": "waiting for the Tier to become Ready"}}},
		},
	}
}

// appliedTier is a Ready Tier whose status records the credentials the
// provider applied, as the Tier controller writes them, with the state
// around them that the row must not copy.
func appliedTier(rv string) jsonMap {
	st := conditions(cond("Ready", "True", "Available", ""), cond("Synced", "True", "ReconcileSuccess", ""))
	st["atProvider"] = jsonMap{"type": "S3", "endpoint": "https://s3.example.com", "credentials": jsonMap{
		"secretName": "cold-tier", "secretResourceVersion": rv, "accessKeyHash": "9f2c4e1a0b7d"}}
	return observedMR("Tier", "tenant-a-tier-cold", jsonMap{}, st)
}

// credentialsCases cover the credentials a tier row shows: what the seed
// records per tier (Secret name, resourceVersion and access-key hash).
func credentialsCases() map[string]statusCase {
	ready := map[string]jsonMap{"bucket-app-data": readyMR("Bucket", "tenant-a-bucket-app-data"),
		"lifecycle-app-data": readyMR("BucketLifecycle", "tenant-a-lifecycle-app-data")}
	with := func(tier jsonMap) map[string]jsonMap { m := maps.Clone(ready); m["tier-COLD"] = tier; return m }
	bucketRow := []any{jsonMap{"name": "app-data", "ready": true, "synced": true, "reason": "Available"}}
	return map[string]statusCase{
		"TierCredentialsApplied": {
			reason:   "The tier row shows the Secret, its resourceVersion and the access-key hash the Tier applied.",
			spec:     spec(),
			observed: with(appliedTier("4711")),
			want: jsonMap{"tiers": []any{jsonMap{"name": "COLD", "ready": true, "synced": true, "reason": "Available",
				"credentials": jsonMap{"secretName": "cold-tier", "secretResourceVersion": "4711", "accessKeyHash": "9f2c4e1a0b7d"}}},
				"buckets": bucketRow},
		},
		"TierCredentialsRotated": {
			reason:   "After a Secret update the row follows the Tier to the new resourceVersion.",
			spec:     spec(),
			observed: with(appliedTier("4712")),
			want: jsonMap{"tiers": []any{jsonMap{"name": "COLD", "ready": true, "synced": true, "reason": "Available",
				"credentials": jsonMap{"secretName": "cold-tier", "secretResourceVersion": "4712", "accessKeyHash": "9f2c4e1a0b7d"}}},
				"buckets": bucketRow},
		},
		"TierCredentialsNotYetApplied": {
			reason:   "A Tier that records no credentials gives a row without them.",
			spec:     spec(),
			observed: with(readyMR("Tier", "tenant-a-tier-cold")),
			want:     jsonMap{"tiers": []any{jsonMap{"name": "COLD", "ready": true, "synced": true, "reason": "Available"}}, "buckets": bucketRow},
		},
	}
}

// tenancyCases cover resources the tenancy rules refuse
// (docs/multi-tenancy.md): their rows give the refusal's reason.
func tenancyCases() map[string]statusCase {
	const notAllowed = "ClusterProviderConfig default does not serve namespace team-b: its namespaceSelector does not select the namespace's labels."
	const duplicate = `A resource in another namespace already manages bucket "app-data" on this RustFS, so this Bucket writes nothing.`
	return map[string]statusCase{
		"RefusedNamespace": {
			reason: "A refused namespace's Tier shows the refusal, on Ready and Synced alike.",
			spec:   spec(withBuckets()),
			observed: map[string]jsonMap{
				"tier-COLD": observedMR("Tier", "tenant-a-tier-cold", jsonMap{}, conditions(
					cond("Ready", "False", "ProviderConfigNotAllowed", notAllowed), cond("Synced", "False", "ProviderConfigNotAllowed", notAllowed))),
			},
			want: jsonMap{"tiers": []any{jsonMap{"name": "COLD", "ready": false, "synced": false, "reason": "ProviderConfigNotAllowed", "message": notAllowed}}},
		},
		"DuplicateBucket": {
			reason: "A duplicate Bucket explains its row; its lifecycle only waits for it.",
			spec:   spec(withTiers()),
			observed: map[string]jsonMap{
				"bucket-app-data": observedMR("Bucket", "tenant-a-bucket-app-data", jsonMap{}, conditions(
					cond("Ready", "False", "DuplicateBucket", duplicate), cond("Synced", "False", "ReconcileError", "observe failed"))),
				"lifecycle-app-data": observedMR("BucketLifecycle", "tenant-a-lifecycle-app-data", jsonMap{}, conditions(
					cond("Ready", "False", "WaitingForReference", "waiting for Bucket tenant-a-bucket-app-data to become Ready"),
					cond("Synced", "False", "WaitingForReference", "waiting"))),
			},
			want: jsonMap{"buckets": []any{jsonMap{"name": "app-data", "ready": false, "synced": false, "reason": "DuplicateBucket", "message": duplicate}}},
		},
	}
}

func TestStatusRows(t *testing.T) {
	cases := conflictAndReadyCases()
	maps.Copy(cases, failureCases())
	maps.Copy(cases, tenancyCases())
	maps.Copy(cases, credentialsCases())
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := rendered(t, runRequest(t, tenantXR(tc.spec), tc.observed)).Composite
			delete(got.(map[string]any)["status"].(map[string]any), "summary") // TestStatusSummary
			if diff := cmp.Diff(asJSON(t, jsonMap{"status": tc.want}), got); diff != "" {
				t.Errorf("%s\ndesired composite: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestReadinessFollowsObservedReady(t *testing.T) {
	rsp := runRequest(t, tenantXR(spec()), map[string]jsonMap{
		"tier-COLD":       conflictingTier(),
		"bucket-app-data": readyMR("Bucket", "tenant-a-bucket-app-data"),
	})
	want := map[string]string{"tier-COLD": "READY_FALSE", "bucket-app-data": "READY_TRUE", "lifecycle-app-data": "READY_FALSE"}
	if diff := cmp.Diff(want, rendered(t, rsp).Ready); diff != "" {
		t.Errorf("desired readiness: -want +got:\n%s", diff)
	}
}

// TestStatusSummary checks the counts the Tenant's kubectl columns read.
func TestStatusSummary(t *testing.T) {
	bucketConflict := observedMR("Bucket", "tenant-a-bucket-app-data", jsonMap{}, conditions(
		cond("Ready", "False", "BucketConflict", "object lock differs"), cond("Synced", "False", "ReconcileError", "observe failed"),
		cond("BucketConflict", "True", "BucketConflict", "object lock differs")))
	cases := map[string]struct {
		reason   string
		observed map[string]jsonMap
		want     jsonMap
	}{
		"TierInConflict": {
			reason:   "A Tier in conflict counts as a conflict; its waiting bucket does not.",
			observed: map[string]jsonMap{"tier-COLD": conflictingTier(), "bucket-app-data": readyMR("Bucket", "tenant-a-bucket-app-data")},
			want:     jsonMap{"tiers": "0/1", "buckets": "0/1", "conflicts": 1},
		},
		"BucketInConflict": {
			reason:   "A Bucket with BucketConflict=True counts as a conflict.",
			observed: map[string]jsonMap{"tier-COLD": readyMR("Tier", "tenant-a-tier-cold"), "bucket-app-data": bucketConflict},
			want:     jsonMap{"tiers": "1/1", "buckets": "0/1", "conflicts": 1},
		},
		"AllReady": {
			reason: "Ready rows count as ready, and there is no conflict.",
			observed: map[string]jsonMap{"tier-COLD": readyMR("Tier", "tenant-a-tier-cold"),
				"bucket-app-data": readyMR("Bucket", "tenant-a-bucket-app-data"), "lifecycle-app-data": readyMR("BucketLifecycle", "tenant-a-lifecycle-app-data")},
			want: jsonMap{"tiers": "1/1", "buckets": "1/1", "conflicts": 0},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := rendered(t, runRequest(t, tenantXR(spec()), tc.observed)).Composite
			summary := got.(map[string]any)["status"].(map[string]any)["summary"]
			if diff := cmp.Diff(asJSON(t, tc.want), summary); diff != "" {
				t.Errorf("%s\nstatus.summary: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
