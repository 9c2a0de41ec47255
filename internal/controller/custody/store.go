package custody

import (
	"context"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A Store reads custody records past the cache and writes them only
// atomically: a create that fails if the record exists, and updates
// conditional on the resourceVersion read. It never deletes one.
type Store struct {
	// Kube writes records.
	Kube client.Client
	// Reader reads them from the API server (the manager's APIReader).
	Reader client.Reader
}

// Get returns the record name, or nil when there is none.
func (s Store) Get(ctx context.Context, name string) (*v1alpha1.CustodyRecord, error) {
	r := &v1alpha1.CustodyRecord{}
	err := s.Reader.Get(ctx, types.NamespacedName{Name: name}, r)
	if kerrors.IsNotFound(err) {
		return nil, nil
	}
	return r, errors.Wrapf(err, "cannot read custody record %s", name)
}

// Create creates r. It fails with AlreadyExists when another claimant made
// the record first: the API server decides between them.
func (s Store) Create(ctx context.Context, r *v1alpha1.CustodyRecord) error {
	labelRecord(r)
	return errors.Wrapf(s.Kube.Create(ctx, r), "cannot create custody record %s", r.GetName())
}

// Update writes r, which must carry the resourceVersion it was read with:
// a record changed meanwhile makes it fail with Conflict.
func (s Store) Update(ctx context.Context, r *v1alpha1.CustodyRecord) error {
	if r.GetResourceVersion() == "" {
		return errors.Errorf("cannot update custody record %s without the resourceVersion it was read with", r.GetName())
	}
	labelRecord(r)
	return errors.Wrapf(s.Kube.Update(ctx, r), "cannot update custody record %s", r.GetName())
}

// labelRecord sets the labels lists and watches select records by.
func labelRecord(r *v1alpha1.CustodyRecord) {
	l := r.GetLabels()
	if l == nil {
		l = map[string]string{}
	}
	l[v1alpha1.LabelCustodyIdentity] = v1alpha1.CustodyIdentityLabel(r.Spec.Identity)
	delete(l, v1alpha1.LabelCustodyHolderNamespace)
	if ns := HolderNamespace(r); ns != "" {
		l[v1alpha1.LabelCustodyHolderNamespace] = ns
	}
	r.SetLabels(l)
}

// HolderNamespace is the namespace that holds r, or the one a Released r
// is kept for; "" for none.
func HolderNamespace(r *v1alpha1.CustodyRecord) string {
	if r == nil {
		return ""
	}
	if r.Spec.Holder != nil {
		return r.Spec.Holder.Namespace
	}
	return r.Spec.ReleasedFor
}

// Holds reports whether r names o as its holder.
func Holds(r *v1alpha1.CustodyRecord, o client.Object) bool {
	return r != nil && r.Spec.Holder != nil && r.Spec.Holder.UID == o.GetUID() &&
		r.Spec.Holder.Namespace == o.GetNamespace() && r.Spec.Holder.Name == o.GetName()
}

// HolderOf returns the holder record of o.
func HolderOf(o client.Object) *v1alpha1.CustodyHolder {
	return &v1alpha1.CustodyHolder{Namespace: o.GetNamespace(), Name: o.GetName(), UID: o.GetUID()}
}

// Handover passes every record o holds, read past the cache, to the
// resource successor names in o's namespace, or releases it for that
// namespace: only that namespace may claim it again (rule 6).
func (cu Custodian) Handover(ctx context.Context, o client.Object, successor func(context.Context, client.Object, string) (client.Object, error)) error {
	l := &v1alpha1.CustodyRecordList{}
	if err := cu.Reader.List(ctx, l, client.MatchingLabels{v1alpha1.LabelCustodyHolderNamespace: o.GetNamespace()}); err != nil {
		return errors.Wrap(err, "cannot list the custody records of the namespace")
	}
	for i := range l.Items {
		r := &l.Items[i]
		if !Holds(r, o) {
			continue
		}
		next, err := successor(ctx, o, r.Spec.Object)
		if err != nil {
			return err
		}
		r.Spec.Holder, r.Spec.ReleasedFor = nil, ""
		if next != nil {
			r.Spec.Holder = HolderOf(next)
		} else {
			r.Spec.Phase, r.Spec.ReleasedFor = v1alpha1.PhaseReleased, o.GetNamespace()
		}
		if err := cu.Update(ctx, r); err != nil {
			return err
		}
	}
	return nil
}
