package custody

import (
	"context"
	"encoding/json"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A Subject is a managed resource that writes one RustFS object and keeps a
// custody record in its status: a Tier, a Bucket or a BucketLifecycle.
type Subject interface {
	resource.ModernManaged
	GetCustody() *v1alpha1.Custody
	SetCustody(c *v1alpha1.Custody)
}

// Record returns a copy of s's custody record; the zero record when it has
// none.
func Record(s Subject) v1alpha1.Custody {
	c := s.GetCustody()
	if c == nil {
		return v1alpha1.Custody{}
	}
	return *c.DeepCopy()
}

// A Proof is a read of RustFS that succeeded with a resource's own
// credentials.
type Proof struct {
	// Identity of the RustFS deployment that answered, and Alias, another
	// identity of the same RustFS: its endpoint form, under which records
	// made while RustFS refused the admin info call were kept ("" if none).
	Identity, Alias string

	// Endpoint is the normalised endpoint that answered.
	Endpoint string

	// Config is the kind of the resource's ProviderConfig.
	Config string

	// Object is the RustFS object the resource names.
	Object string
}

// Prove returns rec after proof p at now. A record of the same identity (or
// its alias), ProviderConfig kind and object, and for a namespaced
// ProviderConfig the same endpoint, keeps its time of proof and what it
// acquired. Any other record is replaced: proven access and acquisitions
// hold for one deployment, one object, and one kind of ProviderConfig, so
// that what was acquired through a RustFS a namespace chose itself never
// counts on the platform's, nor at another endpoint.
func Prove(rec v1alpha1.Custody, p Proof, now time.Time) v1alpha1.Custody {
	same := rec.Object == p.Object && rec.Config == p.Config &&
		(rec.Identity == p.Identity || p.Alias != "" && rec.Identity == p.Alias) &&
		(p.Config == v1alpha1.ClusterProviderConfigKind || rec.Endpoint == p.Endpoint)
	if !same {
		rec = v1alpha1.Custody{Object: p.Object, Config: p.Config}
	}
	rec.Endpoint = p.Endpoint
	identity := p.Identity
	rec.Identity = identity
	if rec.AccessProvenAt == nil {
		rec.AccessProvenAt = &metav1.Time{Time: now.UTC().Truncate(time.Second)}
	}
	return rec
}

// Withdraw returns rec without proven access and eligibility: RustFS
// refused the resource's credentials.
func Withdraw(rec v1alpha1.Custody) v1alpha1.Custody {
	rec.AccessProvenAt = nil
	rec.Eligible = false
	return rec
}

// Ineligible returns rec without eligibility: the tenancy rules refuse the
// resource.
func Ineligible(rec v1alpha1.Custody) v1alpha1.Custody {
	rec.Eligible = false
	return rec
}

// custodyKeys are the JSON names of every field of v1alpha1.Custody; a
// merge patch sets each one, to null when empty, so that Save also clears.
var custodyKeys = []string{"identity", "object", "config", "endpoint", "accessProvenAt", "eligible", "acquired", "record"}

// Save sets rec as s's custody record and writes it through the status
// subresource, unless it equals was, the record s was read with. It merge
// patches only status.custody and takes only the new resourceVersion from
// the reply, so status set on s in this reconcile is kept and the managed
// reconciler's status update that follows does not conflict.
func Save(ctx context.Context, kube client.Client, s Subject, was, rec v1alpha1.Custody) error {
	s.SetCustody(&rec)
	if equality.Semantic.DeepEqual(was, rec) {
		return nil
	}
	body, err := custodyPatch(rec)
	if err != nil {
		return err
	}
	cp, ok := s.DeepCopyObject().(client.Object)
	if !ok {
		return errors.New("cannot copy the managed resource")
	}
	if err := kube.Status().Patch(ctx, cp, client.RawPatch(types.MergePatchType, body)); err != nil {
		return errors.Wrap(err, "cannot record the resource's custody in status")
	}
	s.SetResourceVersion(cp.GetResourceVersion())
	return nil
}

// custodyPatch is the merge patch that makes status.custody rec.
func custodyPatch(rec v1alpha1.Custody) ([]byte, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	fields := map[string]any{}
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	for _, k := range custodyKeys {
		if _, ok := fields[k]; !ok {
			fields[k] = nil
		}
	}
	return json.Marshal(map[string]any{"status": map[string]any{"custody": fields}})
}
