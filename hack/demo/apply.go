package main

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// apply loads the examples, rewrites them for t and creates them.
func (d *demo) apply(ctx context.Context, c client.Client, t target) error {
	docs, err := load(d.examples)
	if err != nil {
		return err
	}
	p := makePlan(docs, t)
	for _, n := range p.notes {
		fmt.Fprintln(d.out, "note: "+n)
	}
	for _, ns := range p.namespaces {
		err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return errors.Wrapf(err, "cannot create namespace %s", ns)
		}
	}
	for _, o := range p.objects {
		if err := c.Create(ctx, o); err != nil {
			return errors.Wrapf(err, "cannot create %s %s/%s", o.GetKind(), o.GetNamespace(), o.GetName())
		}
	}
	fmt.Fprintf(d.out, "applied %d objects from %s/{%s}\n", len(p.objects), d.examples, joinDirs())
	return nil
}

func joinDirs() string {
	s := ""
	for i, d := range exampleDirs {
		if i > 0 {
			s += ","
		}
		s += d
	}
	return s
}
