package v1alpha1

import xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

// Condition types beyond Ready and Synced.
const (
	// TypeTierConflict is True when the live tier cannot be made to match
	// the spec without removing it, which the provider never does.
	TypeTierConflict xpv2.ConditionType = "TierConflict"

	// TypeLifecycleDegraded is True when RustFS dropped fields of the
	// lifecycle configuration the provider put.
	TypeLifecycleDegraded xpv2.ConditionType = "LifecycleDegraded"

	// TypeRemoteHealthy is True when RustFS's last verify of the tier
	// (a probe object written, read and deleted on the remote) succeeded,
	// False when it failed. It never changes Ready: a tier whose remote
	// fails is still registered.
	TypeRemoteHealthy xpv2.ConditionType = "RemoteHealthy"

	// TypeBucketConflict is True when the Bucket cannot manage its bucket:
	// the live bucket's settings cannot change, or an older Bucket owns it.
	TypeBucketConflict xpv2.ConditionType = "BucketConflict"
)

// RemoteHealthy reasons.
const (
	// ReasonRemoteReachable: the last verify succeeded.
	ReasonRemoteReachable xpv2.ConditionReason = "RemoteReachable"
	// ReasonRemoteUnhealthy: the last verify failed; the message is
	// RustFS's answer.
	ReasonRemoteUnhealthy xpv2.ConditionReason = "RemoteUnhealthy"
	// ReasonVerifyPending: the tier is registered and its first verify is
	// not due yet (verifies are spread over one interval).
	ReasonVerifyPending xpv2.ConditionReason = "VerifyPending"
	// ReasonVerifyDisabled: --tier-verify-interval is 0.
	ReasonVerifyDisabled xpv2.ConditionReason = "VerifyDisabled"
	// ReasonObserveOnly: the resource's managementPolicies allow no write,
	// so the provider runs nothing that writes (a tier verify writes a
	// probe object on the remote) and creates or adopts nothing.
	ReasonObserveOnly xpv2.ConditionReason = "ObserveOnly"
)

// Condition reasons.
const (
	ReasonImmutableFieldDrift xpv2.ConditionReason = "ImmutableFieldDrift"
	ReasonBackendInUse        xpv2.ConditionReason = "BackendInUse"
	ReasonDuplicateTier       xpv2.ConditionReason = "DuplicateTier"
	ReasonNoConflict          xpv2.ConditionReason = "NoConflict"
	ReasonTierConflict        xpv2.ConditionReason = "TierConflict"
	ReasonTierApplyFailed     xpv2.ConditionReason = "TierApplyFailed"
	ReasonTierSecretInvalid   xpv2.ConditionReason = "TierSecretInvalid"
	// ReasonCredentialsRefused is the reason of the block recorded for a
	// Tier whose new credentials RustFS refused; the tier keeps its previous
	// ones and stays Ready, and Synced reports the block as a ReconcileError.
	ReasonCredentialsRefused xpv2.ConditionReason = "CredentialsRefused"

	ReasonInvalidBucketName xpv2.ConditionReason = "InvalidBucketName"
	ReasonBucketConflict    xpv2.ConditionReason = "BucketConflict"
	ReasonBucketApplyFailed xpv2.ConditionReason = "BucketApplyFailed"

	ReasonTierNotFound         xpv2.ConditionReason = "TierNotFound"
	ReasonBucketNotFound       xpv2.ConditionReason = "BucketNotFound"
	ReasonDuplicateLifecycle   xpv2.ConditionReason = "DuplicateLifecycle"
	ReasonLifecycleApplyFailed xpv2.ConditionReason = "LifecycleApplyFailed"
	ReasonFieldsDropped        xpv2.ConditionReason = "FieldsDropped"
	ReasonAllFieldsKept        xpv2.ConditionReason = "AllFieldsKept"

	// ReasonWaitingForReference is the Synced and Ready reason of a
	// BucketLifecycle whose referenced Bucket or Tier is missing or not
	// Ready; it is not reconciled until they are.
	ReasonWaitingForReference xpv2.ConditionReason = "WaitingForReference"
)

// Tenancy reasons (docs/multi-tenancy.md). Each is a Ready=False reason
// given before the resource writes anything to RustFS.
const (
	// ReasonProviderConfigNotAllowed: the ClusterProviderConfig's
	// namespaceSelector does not select the resource's namespace. No
	// Secret is read and no request is sent.
	ReasonProviderConfigNotAllowed xpv2.ConditionReason = "ProviderConfigNotAllowed"

	// ReasonNameOutsideNamespace: with nameScope NamespacePrefix, a tier,
	// bucket or transition storage class is outside the namespace's slice,
	// or a namespace with a longer matching prefix owns it.
	ReasonNameOutsideNamespace xpv2.ConditionReason = "NameOutsideNamespace"

	// ReasonAdoptionNotAllowed: the object exists, the resource holds no
	// record of having created or adopted it, and adoption is Never.
	ReasonAdoptionNotAllowed xpv2.ConditionReason = "AdoptionNotAllowed"

	// ReasonDuplicateBucket: another Bucket holds the bucket's custody
	// record on the same RustFS.
	ReasonDuplicateBucket xpv2.ConditionReason = "DuplicateBucket"

	// ReasonBucketManagedElsewhere: the BucketLifecycle's bucket is held by
	// a Bucket in another namespace.
	ReasonBucketManagedElsewhere xpv2.ConditionReason = "BucketManagedElsewhere"

	// ReasonCustodyDisputed: resources of two namespaces claimed the object
	// before the upgrade to custody records; no one writes it until the
	// platform team edits or deletes its record.
	ReasonCustodyDisputed xpv2.ConditionReason = "CustodyDisputed"

	// ReasonTierNotHeld: a lifecycle transition names a tier that no Tier of
	// the same namespace holds and that spec.sharedTiers does not list.
	ReasonTierNotHeld xpv2.ConditionReason = "TierNotHeld"
)

// Bucket deletion reasons (managementPolicies with Delete). Each is a
// Ready=False reason of a Bucket being deleted that keeps its finalizer.
const (
	// ReasonBucketNotEmpty: the bucket holds objects, noncurrent versions,
	// delete markers or incomplete uploads; the provider never empties it.
	ReasonBucketNotEmpty xpv2.ConditionReason = "BucketNotEmpty"
	// ReasonNotBucketHolder: the Bucket does not hold its bucket (another
	// Bucket does, or it never created or adopted it), so it deletes
	// nothing.
	ReasonNotBucketHolder xpv2.ConditionReason = "NotBucketHolder"
)

// BucketAccess reasons (docs/resources.md, "BucketAccess"). Each is a
// Ready=False reason.
const (
	// ReasonBucketNotManaged: with nameScope Cluster, a bucket the
	// BucketAccess names is owned by no Bucket of its namespace, so the key
	// is not created or changed. (A bucket owned by a Bucket of another
	// namespace is BucketManagedElsewhere; one outside the namespace's slice
	// under NamespacePrefix is NameOutsideNamespace.)
	ReasonBucketNotManaged xpv2.ConditionReason = "BucketNotManaged"

	// ReasonAccessApplyFailed: the spec cannot become a session policy, or
	// RustFS refused to create or change the service account or its parent
	// user; not retried until the BucketAccess or its ProviderConfig
	// changes.
	ReasonAccessApplyFailed xpv2.ConditionReason = "AccessApplyFailed"

	// ReasonConnectionSecretConflict: the connection Secret exists and
	// belongs to something else, so no key is created or rotated.
	ReasonConnectionSecretConflict xpv2.ConditionReason = "ConnectionSecretConflict"

	// ReasonServiceAccountConflict: a service account with the key's access
	// key exists under another parent user; it is neither changed nor
	// deleted.
	ReasonServiceAccountConflict xpv2.ConditionReason = "ServiceAccountConflict"

	// ReasonServiceAccountDisabled: someone disabled the key in RustFS; the
	// provider never enables it again.
	ReasonServiceAccountDisabled xpv2.ConditionReason = "ServiceAccountDisabled"

	// ReasonParentUserDisabled: someone disabled the namespace's parent
	// user in RustFS, which denies every key of the namespace; the provider
	// never enables it again.
	ReasonParentUserDisabled xpv2.ConditionReason = "ParentUserDisabled"
)
