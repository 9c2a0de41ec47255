// Package custody decides whether a managed resource may write the RustFS
// object it names (a tier name, a bucket, a bucket's lifecycle
// configuration), and keeps the records those decisions and the provider's
// other memory rest on. Every controller asks it, in the same order, before
// it reads a Secret and before it writes to RustFS (docs/design.md §4,
// docs/multi-tenancy.md):
//
//  1. Namespace policy: a ClusterProviderConfig's namespaceSelector must
//     select the resource's namespace (ProviderConfigNotAllowed).
//  2. Name slices: with nameScope NamespacePrefix, every tier, bucket and
//     transition storage class must be in the namespace's slice, where the
//     longest matching prefix among the namespaces that exist wins (Taken;
//     NameOutsideNamespace). Gate decides 1 and 2 from the ProviderConfig
//     and the Namespaces in the cache, before the resource's usage
//     is recorded or any Secret is read; Screen reports such a refusal in
//     front of the rate limiter, and Connect asks Gate again.
//  3. Proven access: one read of RustFS with the resource's own credentials
//     (Prove), on the deployment Identify names (rule 4).
//  4. Dependents (rule 7): a BucketLifecycle's bucket, a BucketAccess's
//     buckets and a transition's tiers must not be held by another
//     namespace (BucketManagedElsewhere, TierNotHeld).
//  5. Custody (rules 1–6 of docs/multi-tenancy.md "Custody records"): a
//     cluster-scoped CustodyRecord per RustFS object, which only the
//     provider writes, names the resource that may write it. Custodian.Hold
//     claims it by an atomic create, never takes a held record, and
//     settles its phase; Confirm and Mark re-read it past the cache before
//     every write; Handover passes it on when its holder is deleted, only
//     within the holder's namespace, else releases it for that namespace.
//     Watch makes the resources of the holder's namespace decide again
//     when a record changes.
//
// # What is persisted where, and why
//
// Custody records (Store): the decisions that grant rights, in a kind
// tenants get no RBAC on. Status field status.custody (Record, written by
// Save through the status subresource) is a display copy of the proof and
// the record; no decision reads it, so a subject that may write */status
// gains nothing by forging it.
//
// What the provider remembers but grants nothing, annotations and blocks,
// is package memo.
package custody
