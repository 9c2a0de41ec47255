// Package upgrade creates custody records from the status of v0.2 (rule 10
// of docs/multi-tenancy.md "Custody records"), once, before any controller
// claims one.
package upgrade

import (
	"context"
	"sort"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// Marker is the name of the record that says the upgrade is done.
const Marker = "upgrade-from-v0.2"

// A claim is one resource's v0.2 status claim of an object.
type claim struct {
	holder  custody.Subject
	phase   v1alpha1.CustodyPhase
	created metav1.Time
}

// key identifies the record of an object.
type key struct {
	identity, object string
	kind             v1alpha1.CustodyKind
}

// Run creates, unless the marker exists, a record for every object that
// resources claimed as Created or Adopted in their v0.2 status: held by the
// oldest claimant where all claimants are of one namespace, Disputed
// (no holder, no writes until the platform decides) where they are of
// two. A record that exists already is kept. It then creates the marker.
// Kinds whose CRD is not installed have nothing to upgrade.
func Run(ctx context.Context, s custody.Store) error {
	m, err := s.Get(ctx, Marker)
	if err != nil || m != nil {
		return err
	}
	claims := map[key][]claim{}
	for kind, list := range map[v1alpha1.CustodyKind]client.ObjectList{
		v1alpha1.CustodyTier: &v1alpha1.TierList{}, v1alpha1.CustodyBucket: &v1alpha1.BucketList{},
		v1alpha1.CustodyBucketLifecycle: &v1alpha1.BucketLifecycleList{},
	} {
		if err := collect(ctx, s.Reader, kind, list, claims); err != nil {
			return err
		}
	}
	for k, cs := range claims {
		if err := create(ctx, s, record(k.identity, k.kind, k.object, cs)); err != nil {
			return err
		}
	}
	return create(ctx, s, &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: Marker},
		Spec: v1alpha1.CustodyRecordSpec{Identity: "-", Kind: v1alpha1.CustodyUpgrade, Object: Marker}})
}

// collect adds the claims of the resources of kind, listed into l.
func collect(ctx context.Context, r client.Reader, kind v1alpha1.CustodyKind, l client.ObjectList, claims map[key][]claim) error {
	err := r.List(ctx, l)
	if apimeta.IsNoMatchError(err) || kerrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return errors.Wrapf(err, "cannot list the %ss to upgrade", kind)
	}
	items, err := apimeta.ExtractList(l)
	if err != nil {
		return err
	}
	for _, o := range items {
		if s, ok := o.(custody.Subject); ok && acquired(custody.Record(s)) {
			c := custody.Record(s)
			k := key{identity: c.Identity, object: c.Object, kind: kind}
			claims[k] = append(claims[k], claim{holder: s, phase: v1alpha1.CustodyPhase(c.Acquired), created: s.GetCreationTimestamp()})
		}
	}
	return nil
}

// acquired reports whether c claims an object as created or adopted.
func acquired(c v1alpha1.Custody) bool {
	return c.Identity != "" && c.Object != "" && (c.Acquired == v1alpha1.AcquiredCreated || c.Acquired == v1alpha1.AcquiredAdopted)
}

// record is the record of object of kind on identity that claims cs make.
func record(identity string, kind v1alpha1.CustodyKind, object string, cs []claim) *v1alpha1.CustodyRecord {
	r := &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: v1alpha1.CustodyRecordName(identity, kind, object)},
		Spec: v1alpha1.CustodyRecordSpec{Identity: identity, Kind: kind, Object: object, Phase: v1alpha1.PhaseDisputed}}
	sort.Slice(cs, func(i, j int) bool {
		if !cs[i].created.Equal(&cs[j].created) {
			return cs[i].created.Before(&cs[j].created)
		}
		return cs[i].holder.GetName() < cs[j].holder.GetName()
	})
	for _, c := range cs[1:] {
		if c.holder.GetNamespace() != cs[0].holder.GetNamespace() {
			return r
		}
	}
	r.Spec.Holder, r.Spec.Phase = custody.HolderOf(cs[0].holder), cs[0].phase
	return r
}

func create(ctx context.Context, s custody.Store, r *v1alpha1.CustodyRecord) error {
	err := s.Create(ctx, r)
	if kerrors.IsAlreadyExists(errors.Cause(err)) {
		return nil
	}
	return err
}
