package custody

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// A NamespaceReader reads the labels of a Namespace, and whether one
// exists.
type NamespaceReader interface {
	Labels(ctx context.Context, name string) (map[string]string, error)
	Exists(ctx context.Context, name string) (bool, error)
}

// errNoNamespaceAccess is returned by Namespaces when the provider may not
// list and watch Namespaces.
var errNoNamespaceAccess = errors.New("the provider may not read Namespaces")

// Namespaces reads Namespace labels from the manager's cache, where
// Namespaces are watched as metadata only. Allowed says whether the
// provider may list and watch Namespaces (see Shared.NamespaceAccess);
// without that, no label is read and every selector refuses.
type Namespaces struct {
	Reader  client.Reader
	Allowed bool
}

// Labels returns the labels of Namespace name; none when it does not exist.
func (n Namespaces) Labels(ctx context.Context, name string) (map[string]string, error) {
	if !n.Allowed {
		return nil, errNoNamespaceAccess
	}
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Namespace"))
	if err := n.Reader.Get(ctx, types.NamespacedName{Name: name}, m); err != nil {
		return nil, errors.Wrapf(resource.IgnoreNotFound(err), "cannot read the labels of namespace %s", name)
	}
	return m.GetLabels(), nil
}

// Exists reports whether Namespace name exists.
func (n Namespaces) Exists(ctx context.Context, name string) (bool, error) {
	if !n.Allowed {
		return false, errNoNamespaceAccess
	}
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Namespace"))
	err := n.Reader.Get(ctx, types.NamespacedName{Name: name}, m)
	if kerrors.IsNotFound(err) {
		return false, nil
	}
	return err == nil, errors.Wrapf(err, "cannot read namespace %s", name)
}

// A Gate connects a managed resource to RustFS only when its namespace may
// use its ProviderConfig (rule 1) and its names are in its namespace's
// slice (rule 2). It decides from the ProviderConfig and the Namespace in
// the cache, so a refused resource's usage is not recorded and no Secret
// is read for it. A refusal is reported on the resource and withdraws its
// eligibility.
type Gate struct {
	Kube       client.Client
	Target     func(ctx context.Context, mg resource.ModernManaged) (*connection.Target, error)
	Connect    func(ctx context.Context, mg resource.ModernManaged, t *connection.Target) (*connection.Connection, error)
	Namespaces NamespaceReader

	// Report sets the resource's conditions for a refusal; NotReady's by
	// default.
	Report func(s Subject, r *Refusal)
}

// NewGate returns a Gate that reads ProviderConfigs and connects with r,
// reads Namespaces with ns and records refusals through kube.
func NewGate(kube client.Client, r *connection.Resolver, ns NamespaceReader) *Gate {
	return &Gate{Kube: kube, Target: r.Target, Connect: r.Connect, Namespaces: ns}
}

// Open returns the connection of s's ProviderConfig, or a *Refusal when the
// rules refuse s the ProviderConfig or one of the names n.
func (g *Gate) Open(ctx context.Context, s Subject, n Names) (*connection.Connection, error) {
	t, err := g.Target(ctx, s)
	if err != nil {
		return nil, err
	}
	r, err := g.check(ctx, s.GetNamespace(), t, n)
	if err != nil {
		return nil, err
	}
	if r != nil {
		return nil, g.refuse(ctx, s, r)
	}
	return g.Connect(ctx, s, t)
}

// check returns the refusal of rule 1 or 2, if any.
func (g *Gate) check(ctx context.Context, ns string, t *connection.Target, n Names) (*Refusal, error) {
	if t.NamespaceSelector != nil {
		l, err := g.Namespaces.Labels(ctx, ns)
		if err != nil && !errors.Is(err, errNoNamespaceAccess) {
			return nil, err
		}
		ok := false
		if err == nil {
			ok, err = Selects(t.NamespaceSelector, l)
		}
		if err != nil {
			return &Refusal{Reason: v1alpha1.ReasonProviderConfigNotAllowed, Message: selectorMessage(ns, t.Config, err), Cause: err}, nil
		}
		if !ok {
			return &Refusal{Reason: v1alpha1.ReasonProviderConfigNotAllowed, Message: notSelectedMessage(ns, t.Config)}, nil
		}
	}
	if t.Tenancy.NameScope != v1alpha1.NameScopeNamespacePrefix {
		return nil, nil
	}
	taken, err := Taken(ctx, g.Namespaces, ns, n)
	if err != nil {
		return nil, err
	}
	if out := Outside(ns, t.Tenancy, n, taken); len(out) > 0 {
		return &Refusal{Reason: v1alpha1.ReasonNameOutsideNamespace, Message: sliceMessage(ns, t.Config, out)}, nil
	}
	return nil, nil
}

// refuse reports r on s, withdraws s's eligibility and returns r.
func (g *Gate) refuse(ctx context.Context, s Subject, r *Refusal) error {
	if g.Report != nil {
		g.Report(s, r)
	} else {
		s.SetConditions(NotReady(s, r))
	}
	was := Record(s)
	if err := Save(ctx, g.Kube, s, was, Ineligible(was)); err != nil {
		return err
	}
	return r
}

// NotReady is the Ready=False condition that reports r on s.
func NotReady(s Subject, r *Refusal) xpv2.Condition {
	return xpv2.Condition{
		Type: xpv2.TypeReady, Status: corev1.ConditionFalse, Reason: r.Reason, Message: r.Message,
		LastTransitionTime: metav1.Now(), ObservedGeneration: s.GetGeneration(),
	}
}
