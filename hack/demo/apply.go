package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// tenantSkipped says why the demo does not apply examples/tenant.
const tenantSkipped = "examples/tenant is not applied: a Tenant needs Crossplane core and the Tenant function, " +
	"which the demo does not run; make e2e (test/packages) installs and runs them"

// apply loads the examples, rewrites them for t and creates them.
func (d *demo) apply(ctx context.Context, c client.Client, t target) (int, error) {
	docs, err := load(d.examples)
	if err != nil {
		return 0, err
	}
	p := makePlan(docs, t)
	for _, n := range p.notes {
		fmt.Fprintln(d.out, "note: "+n)
	}
	if _, err := os.Stat(filepath.Join(d.examples, "tenant")); err == nil {
		fmt.Fprintln(d.out, "note: "+tenantSkipped)
	}
	for _, ns := range p.namespaces {
		err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return 0, errors.Wrapf(err, "cannot create namespace %s", ns)
		}
	}
	managed := 0
	for _, o := range p.objects {
		if err := c.Create(ctx, o); err != nil {
			return 0, errors.Wrapf(err, "cannot create %s %s/%s", o.GetKind(), o.GetNamespace(), o.GetName())
		}
		if o.GetObjectKind().GroupVersionKind().Group == v1alpha1.Group && o.GetKind() != v1alpha1.ClusterProviderConfigKind &&
			o.GetKind() != v1alpha1.ProviderConfigKind {
			managed++
		}
	}
	fmt.Fprintf(d.out, "applied %d objects (%d managed resources) from %s/{%s}\n", len(p.objects), managed, d.examples, strings.Join(exampleDirs, ","))
	return managed, nil
}
