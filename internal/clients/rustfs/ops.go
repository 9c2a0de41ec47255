package rustfs

// The operations a Client performs, as reported to a RequestObserver. They
// are the route names of the emulator (rustfstest) where it has one, so
// that a metric and an emulator request count name a call alike.
const (
	OpListTiers          = "tier.list"
	OpAddTier            = "tier.add"
	OpEditTier           = "tier.edit"
	OpRemoveTier         = "tier.remove"
	OpVerifyTier         = "tier.verify"
	OpTierStats          = "tier.stats"
	OpServerInfo         = "admin.info"
	OpHeadBucket         = "bucket.head"
	OpCreateBucket       = "bucket.create"
	OpBucketLocation     = "bucket.location"
	OpObjectLock         = "bucket.objectLock"
	OpGetVersioning      = "bucket.getVersioning"
	OpPutVersioning      = "bucket.putVersioning"
	OpGetLifecycle       = "lifecycle.get"
	OpPutLifecycle       = "lifecycle.put"
	OpDeleteLifecycle    = "lifecycle.delete"
	OpAddUser            = "iam.addUser"
	OpUserInfo           = "iam.userInfo"
	OpSetUserPolicy      = "iam.setPolicy"
	OpAddCannedPolicy    = "iam.addPolicy"
	OpCannedPolicyInfo   = "iam.policyInfo"
	OpAddServiceAccount  = "sa.add"
	OpServiceAccountInfo = "sa.info"
	OpUpdateSA           = "sa.update"
	OpDeleteSA           = "sa.delete"
	OpDeleteBucket       = "bucket.delete"
	OpListVersions       = "object.listVersions"
	OpGetQuota           = "quota.get"
	OpSetQuota           = "quota.set"
	OpClearQuota         = "quota.clear"
	// OpUnknown names a request sent without an operation: a bug, which
	// the client's tests catch, reported under one bounded name.
	OpUnknown = "unknown"
)

// Operations returns every operation name a RequestObserver can be told.
func Operations() []string {
	return []string{
		OpListTiers, OpAddTier, OpEditTier, OpRemoveTier, OpVerifyTier, OpTierStats, OpServerInfo,
		OpHeadBucket, OpCreateBucket, OpBucketLocation, OpObjectLock, OpGetVersioning, OpPutVersioning,
		OpGetLifecycle, OpPutLifecycle, OpDeleteLifecycle,
		OpAddUser, OpUserInfo, OpSetUserPolicy, OpAddCannedPolicy, OpCannedPolicyInfo,
		OpAddServiceAccount, OpServiceAccountInfo, OpUpdateSA, OpDeleteSA,
		OpDeleteBucket, OpListVersions, OpGetQuota, OpSetQuota, OpClearQuota, OpUnknown,
	}
}
