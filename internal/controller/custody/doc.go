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
//  4. Eligibility: what only the kind knows (a BucketLifecycle's bucket must
//     be managed in its own namespace: BucketManagedElsewhere) and the
//     adoption policy (AdoptionNotAllowed), in Decide.
//  5. Ownership: of all resources, in every namespace, that are eligible
//     and have proven access to the object's RustFS deployment, the first
//     (through a ClusterProviderConfig, then the oldest) owns it (Elect);
//     the others report their kind's duplicate reason. Confirm elects again,
//     past the cache, just before a write. Watch and CustodyChanged make the
//     others decide again when a record changes.
//
// # What is persisted where, and why
//
// Status, field status.custody (Record, written by Save through the status
// subresource): the RustFS identity the resource reached, the object, when
// a read with its own credentials first succeeded there (proven access),
// whether it is eligible, and whether it created or adopted the object.
// These records grant rights: other resources' decisions read them from the
// cache (never a peer's ProviderConfig or Secret), and the adoption policy
// honours "created" and "adopted". They are in status because the status
// subresource is written by the provider, not by whoever may edit the
// resource: Kubernetes authorises it separately (tiers/status), and GitOps
// tools and kubectl apply do not write it. Crossplane's crossplane-edit and
// crossplane-admin ClusterRoles do include */status of a provider's kinds;
// a subject bound to them in a namespace can forge that namespace's
// records. A forged eligibility or proof makes a peer stand down until the
// forged resource is next reconciled, which rewrites them; a forged
// acquisition (Created, Adopted) is kept by that reconcile, so it can make
// the forged resource the owner, and let it write, under any adoption
// policy. Grant namespace teams roles without */status where that matters.
//
// An intent to create (Intend): before a tier add, a bucket create or the
// first put of a lifecycle configuration, Create records
// status.custody.acquired Creating, after Observe in the same reconcile
// found the object absent and Confirm elected the resource. If the answer
// is lost, the record of the write refused, or the provider stops before
// it records Created, the next read that finds the object turns the
// intent into Created (Decide, resolve), so adoption Never does not refuse
// the resource its own object and Automatic does not call it Adopted. The
// intent counts only if the object did not exist when it was written, as
// far as the provider can tell: it is dropped when RustFS answers that the
// object already exists (Abandon), when a decision refuses the resource,
// and when any competing resource records having created or adopted the
// object; it never changes who owns (Elect). What remains is a create by
// someone outside the provider's view in the moment between the read and
// a write whose answer is then lost.
//
// Annotations with the prefix rustfs.m.crossplane.io/ (Get, Set, Persist):
// what the provider must remember but that grants nothing: the credentials
// it applied to a tier, the hashes of the lifecycle configuration it put,
// and blocks (Block). The managed reconciler persists annotations, not
// status, after Create, so such memory set in Create must be annotations.
// Anyone who may edit the resource may edit them: forging them can only
// make the provider retry a write it would make anyway, skip a write to the
// resource's own object, or report a stale failure, all within what that
// person can already do by editing the spec.
//
// A block records a write that failed in a way only a change of
// configuration can fix; the write is not attempted again while the
// resource's inputs (Fingerprint) stay the same.
package custody
