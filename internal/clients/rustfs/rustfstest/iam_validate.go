package rustfstest

import "strings"

// knownActions are the action names RustFS's ActionSet accepts
// (crates/policy/src/policy/action.rs, S3Action and AdminAction); any other
// name fails to decode (docs/rustfs-wire.md §16.7).
var knownActions = func() map[string]bool {
	m := map[string]bool{}
	for _, a := range strings.Fields(s3ActionNames + " " + adminActionNames) {
		m[a] = true
	}
	return m
}()

const s3ActionNames = `s3:* s3:AbortMultipartUpload s3:CreateBucket s3:DeleteBucket s3:ForceDeleteBucket
s3:DeleteBucketPolicy s3:DeleteBucketPublicAccessBlock s3:DeleteBucketCors s3:DeleteObject s3:GetBucketLocation
s3:GetBucketNotification s3:GetBucketPolicy s3:GetBucketPublicAccessBlock s3:GetBucketCors s3:GetBucketAcl
s3:PutBucketAcl s3:GetObject s3:GetObjectAcl s3:GetObjectAttributes s3:HeadBucket s3:ListAllMyBuckets s3:ListBucket
s3:GetBucketPolicyStatus s3:ListBucketVersions s3:ListBucketMultipartUploads s3:ListenNotification
s3:ListenBucketNotification s3:ListMultipartUploadParts s3:PutBucketLifecycle s3:GetBucketLifecycle
s3:PutBucketLogging s3:GetBucketLogging s3:PutBucketNotification s3:PutBucketPolicy s3:PutBucketPublicAccessBlock
s3:PutBucketCors s3:PutObject s3:PutObjectAcl s3:DeleteObjectVersion s3:DeleteObjectVersionTagging
s3:GetObjectVersion s3:GetObjectVersionAttributes s3:GetObjectVersionTagging s3:PutObjectVersionTagging
s3:BypassGovernanceRetention s3:PutObjectRetention s3:GetObjectRetention s3:GetObjectLegalHold
s3:PutObjectLegalHold s3:GetBucketObjectLockConfiguration s3:PutBucketObjectLockConfiguration s3:GetBucketTagging
s3:PutBucketTagging s3:GetObjectTagging s3:PutObjectTagging s3:DeleteObjectTagging s3:PutBucketEncryption
s3:GetBucketEncryption s3:PutBucketVersioning s3:GetBucketVersioning s3:GetReplicationConfiguration
s3:PutReplicationConfiguration s3:ReplicateObject s3:ReplicateDelete s3:ReplicateTags
s3:GetObjectVersionForReplication s3:RestoreObject s3:ResetBucketReplicationState s3:PutObjectFanOut
s3:GetBucketQuota`

const adminActionNames = `admin:* admin:Heal admin:Decommission admin:Rebalance admin:StorageInfo admin:Prometheus
admin:DataUsageInfo admin:ForceUnlock admin:TopLocksInfo admin:Profiling admin:ServerTrace admin:ConsoleLog
admin:ServerInfo admin:OBDInfo admin:LicenseInfo admin:BandwidthMonitor admin:InspectData admin:ServerUpdate
admin:ServiceRestart admin:ServiceStop admin:ServiceFreeze admin:ConfigUpdate admin:CreateUser admin:DeleteUser
admin:ListUsers admin:EnableUser admin:DisableUser admin:GetUser admin:SiteReplicationAdd
admin:SiteReplicationDisable admin:SiteReplicationRemove admin:SiteReplicationResync admin:SiteReplicationInfo
admin:SiteReplicationOperation admin:CreateServiceAccount admin:UpdateServiceAccount admin:RemoveServiceAccount
admin:ListServiceAccounts admin:ListTemporaryAccounts admin:AddUserToGroup admin:RemoveUserFromGroup admin:GetGroup
admin:ListGroups admin:EnableGroup admin:DisableGroup admin:CreatePolicy admin:DeletePolicy admin:GetPolicy
admin:AttachUserOrGroupPolicy admin:UpdatePolicyAssociation admin:ListUserPolicies admin:SetBucketQuota
admin:SetBucketTarget admin:GetBucketTarget admin:GetMetrics admin:ReplicationDiff admin:GetReplicationMetrics
admin:ImportBucketMetadata admin:ExportBucketMetadata admin:SetTier admin:ListTier admin:ExportIAM admin:ImportIAM
admin:ListBatchJobs admin:DescribeBatchJob admin:StartBatchJob admin:CancelBatchJob`

// conditionOperators are the operators condition.rs decodes (and each with
// IfExists); the emulator evaluates only modelledOperators.
var conditionOperators = map[string]bool{}

var modelledOperators = map[string]bool{"StringEquals": true, "StringNotEquals": true, "StringLike": true, "StringNotLike": true}

// modelledKeys are the condition keys ListObjects fills from its query
// (rustfs/src/storage/access.rs › merge_list_bucket_query_conditions).
var modelledKeys = map[string]string{"s3:prefix": "prefix", "s3:delimiter": "delimiter", "s3:max-keys": "max-keys"}

func init() {
	for _, op := range strings.Fields(`StringEquals StringNotEquals StringEqualsIgnoreCase StringNotEqualsIgnoreCase
StringLike StringNotLike ArnLike ArnNotLike ArnEquals ArnNotEquals BinaryEquals IpAddress NotIpAddress Null Bool
NumericEquals NumericNotEquals NumericLessThan NumericLessThanEquals NumericGreaterThan NumericGreaterThanEquals
DateEquals DateNotEquals DateLessThan DateLessThanEquals DateGreaterThan DateGreaterThanEquals`) {
		conditionOperators[op] = true
	}
}

// parseConditions reads a Condition object (function.rs › Functions):
// operators may carry a ForAnyValue:/ForAllValues: qualifier; a repeated
// operator, an unknown operator or an empty value list fails to decode.
func parseConditions(n jsonNode) ([]iamCondition, *s3Error) {
	if n.kind != '{' {
		return nil, errPolicyFormat
	}
	var out []iamCondition
	seen := map[string]bool{}
	for _, m := range n.members {
		if seen[m.key] || strings.Count(m.key, ":") > 1 {
			return nil, errPolicyFormat
		}
		seen[m.key] = true
		qualifier, op, found := strings.Cut(m.key, ":")
		if !found {
			qualifier, op = "", m.key
		}
		if qualifier != "" && qualifier != "ForAnyValue" && qualifier != "ForAllValues" ||
			!conditionOperators[strings.TrimSuffix(op, "IfExists")] {
			return nil, errPolicyFormat
		}
		if qualifier != "" || !modelledOperators[op] {
			return nil, notModelled("condition operator " + m.key)
		}
		keys, err := parseConditionKeys(m.value)
		if err != nil {
			return nil, err
		}
		out = append(out, iamCondition{operator: op, keys: keys})
	}
	return out, nil
}

func parseConditionKeys(n jsonNode) ([]iamConditionKey, *s3Error) {
	if n.kind != '{' {
		return nil, errPolicyFormat
	}
	var out []iamConditionKey
	for _, m := range n.members {
		values, ok := m.value.stringList()
		if !ok || len(values) == 0 {
			return nil, errPolicyFormat
		}
		if _, ok := modelledKeys[m.key]; !ok {
			return nil, notModelled("condition key " + m.key)
		}
		out = append(out, iamConditionKey{name: m.key, values: values})
	}
	return out, nil
}

// validate is Statement::is_valid (docs/rustfs-wire.md §16.7): Action or NotAction, of one
// family; Resource or NotResource, required unless the actions are admin
// actions.
func (s *iamStatement) validate() *s3Error {
	switch {
	case len(s.actions) == 0 && len(s.notActions) == 0:
		return invalidPolicy("both 'Action' and 'NotAction' are empty")
	case len(s.actions) > 0 && len(s.notActions) > 0:
		return invalidPolicy("'Action' and 'NotAction' cannot both be specified in the same statement")
	}
	family := ""
	for _, a := range s.actions {
		f, _, _ := strings.Cut(a, ":")
		if family != "" && f != family {
			return invalidPolicy("'Action' contains mixed action families in the same statement")
		}
		family = f
	}
	switch {
	case len(s.resources) == 0 && len(s.notResources) == 0 && family != "admin":
		return invalidPolicy("Resource is empty")
	case len(s.resources) > 0 && len(s.notResources) > 0:
		return invalidPolicy("'Resource' and 'NotResource' cannot both be specified in the same statement")
	}
	return nil
}
