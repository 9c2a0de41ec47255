package main

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// startKube starts etcd and kube-apiserver with package/provider/crds
// installed, writes a kubeconfig for them and returns a client.
func (d *demo) startKube(ctx context.Context) (client.Client, error) {
	var crds []string
	if d.coreCRDs != "" {
		crds = append(crds, d.coreCRDs)
	}
	cp, err := testenv.Launch(ctx, d.root, d.dir, d.out, crds...)
	if err != nil {
		return nil, err
	}
	d.kube = cp
	fmt.Fprintf(d.out, "kube-apiserver %s with the provider's CRDs (kubeconfig: %s)\n", cp.Config.Host, cp.Kubeconfig)
	return cp.Client, nil
}

// spawn starts a child process logging to the work directory and
// remembers it, so that shutdown stops it.
func (d *demo) spawn(name string, env []string, path string, args ...string) (*testenv.Child, error) {
	c, err := testenv.Spawn(d.dir, name, env, path, args...)
	if err != nil {
		return nil, err
	}
	d.children = append(d.children, c)
	return c, nil
}
