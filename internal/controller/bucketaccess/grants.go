package bucketaccess

import (
	"context"
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// A desired is what the spec asks RustFS for: the grants, the buckets they
// name (sorted, without duplicates) and the session policy they make.
type desired struct {
	grants  []rustfs.BucketGrant
	buckets []string
	policy  rustfs.Policy
}

// desire renders the spec into the session policy the key must have. It
// refuses, before anything is read, a bucket name that breaks the S3
// naming rules (which the CRD checks too), and what the CRD cannot check: an entry
// whose reference is not resolved yet, the same bucket and prefix twice once
// references are resolved, and a policy larger than RustFS stores.
func desire(cr *v1alpha1.BucketAccess) (desired, error) {
	seen := map[[2]string]int{}
	d := desired{buckets: bucketNames(cr)}
	for i, b := range cr.Spec.ForProvider.Buckets {
		if b.Bucket == "" {
			return desired{}, errors.Errorf("spec.forProvider.buckets[%d] names no bucket yet: its reference is not resolved", i)
		}
		if err := naming.Bucket.CheckField(fmt.Sprintf("spec.forProvider.buckets[%d].bucket", i), b.Bucket); err != nil {
			return desired{}, err
		}
		k := [2]string{b.Bucket, b.Prefix}
		if j, dup := seen[k]; dup {
			return desired{}, errors.Errorf("spec.forProvider.buckets[%d] and buckets[%d] both grant bucket %q with prefix %q: "+
				"merge them into one entry with the access level you want", j, i, b.Bucket, b.Prefix)
		}
		seen[k] = i
		d.grants = append(d.grants, rustfs.BucketGrant{Bucket: b.Bucket, Access: rustfs.Access(b.Access), Prefix: b.Prefix})
	}
	p, err := rustfs.SessionPolicy(d.grants)
	if err != nil {
		return desired{}, errors.Wrap(err, "spec.forProvider.buckets cannot become a session policy")
	}
	d.policy = p
	return d, nil
}

// accessKey is the key's access key: derived from the resource's
// namespace, name and UID, so a BucketAccess created again under the same
// name gets a new key, and no other resource can name this one.
func accessKey(cr *v1alpha1.BucketAccess) string {
	return rustfs.DeriveAccessKey(cr.GetNamespace(), cr.GetName(), string(cr.GetUID()))
}

// parentUser is the namespace's parent user, bounded under nameScope
// NamespacePrefix to the buckets that start with the namespace's prefix
// but not with the prefix of a longer namespace that exists (longer), to
// every bucket otherwise (docs/rustfs-wire.md §20.7).
func (e *external) parentUser(ctx context.Context, cr *v1alpha1.BucketAccess) (rustfs.ParentUser, error) {
	prefix := ""
	if e.conn.Target.Tenancy.NameScope == v1alpha1.NameScopeNamespacePrefix {
		prefix = naming.SliceOf(cr.GetNamespace()).BucketPrefix
	}
	excluded, err := e.longer(ctx, cr)
	if err != nil {
		return rustfs.ParentUser{}, err
	}
	p, err := rustfs.NewParentUser(cr.GetNamespace(), prefix, excluded...)
	return p, errors.Wrap(err, "cannot name the namespace's parent user")
}

// longer returns, under nameScope NamespacePrefix, the bucket prefixes of
// the namespaces that exist and whose prefixes are longer than the
// resource's namespace's: the longest prefix owns a name, so the parent's
// bound leaves their buckets out, even those a key was granted before
// the namespace existed. They come from the cache. Without access to
// Namespaces there are none: the Gate then refuses every name a longer
// prefix could own, so no key is granted one.
func (e *external) longer(ctx context.Context, cr *v1alpha1.BucketAccess) ([]string, error) {
	if e.conn.Target.Tenancy.NameScope != v1alpha1.NameScopeNamespacePrefix || e.namespaces == nil {
		return nil, nil
	}
	names, err := e.namespaces.Longer(ctx, cr.GetNamespace())
	if custody.NoNamespaceAccess(err) {
		return nil, nil
	}
	if err != nil {
		return nil, errors.Wrap(err, "cannot list the namespaces with a longer prefix")
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = naming.SliceOf(n).BucketPrefix
	}
	return out, nil
}

// bucketRule is rule 7 for BucketAccess (docs/multi-tenancy.md): a key is
// granted a bucket only while a Bucket of the key's namespace holds the
// bucket's custody record on the same RustFS or, with nameScope
// NamespacePrefix, while the bucket has no record (the Gate has already
// refused names outside the namespace's slice). It reads the records past
// the cache, nothing from RustFS, and names no resource of another
// namespace.
func (e *external) bucketRule(ctx context.Context, cr *v1alpha1.BucketAccess, p custody.Proof, buckets []string) (*custody.Refusal, error) {
	slice := e.conn.Target.Tenancy.NameScope == v1alpha1.NameScopeNamespacePrefix
	var elsewhere, unmanaged []string
	for _, b := range buckets {
		held, recorded, err := e.custodian().HeldIn(ctx, p.Identity, v1alpha1.CustodyBucket, b, cr.GetNamespace())
		if err != nil {
			return nil, err
		}
		switch {
		case held:
		case recorded:
			elsewhere = append(elsewhere, fmt.Sprintf("%q", b))
		case !slice:
			unmanaged = append(unmanaged, fmt.Sprintf("%q", b))
		}
	}
	switch {
	case len(elsewhere) > 0:
		return &custody.Refusal{Reason: v1alpha1.ReasonBucketManagedElsewhere, Message: fmt.Sprintf("Bucket %s is managed by a "+
			"resource in another namespace (or by none of this one), and a BucketAccess grants only buckets of its own namespace, so no key is created "+
			"or changed. Remove it from spec.forProvider.buckets.", strings.Join(elsewhere, ", "))}, nil
	case len(unmanaged) > 0:
		return &custody.Refusal{Reason: v1alpha1.ReasonBucketNotManaged, Message: fmt.Sprintf("No Bucket of this namespace "+
			"manages bucket %s on this RustFS, and a BucketAccess grants only buckets a Bucket of its own namespace owns "+
			"(or, with nameScope NamespacePrefix, buckets of the namespace's slice), so no key is created or changed. "+
			"Create a Bucket for it in this namespace, or reference one with bucketRef.", strings.Join(unmanaged, ", "))}, nil
	}
	return nil, nil
}

// custodian reads custody records past the cache.
func (e *external) custodian() custody.Custodian {
	return custody.Custodian{Store: custody.Store{Kube: e.kube, Reader: e.uncached}, Identify: e.identify, Now: e.now}
}
