package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// usageKind is the kind of the ProviderConfigUsages the provider creates,
// one per managed resource, which its cache holds too.
var usageKind = v1alpha1.ProviderConfigUsageKind

// recordKind is the kind of the custody records the provider creates, one
// per tier name, bucket and lifecycle configuration, which its cache holds
// too. They are cluster-scoped.
var recordKind = v1alpha1.CustodyRecordKind

// sizeKinds are the kinds whose objects' sizes the report gives.
var sizeKinds = append(append([]string{}, kinds...), usageKind, recordKind)

// lists returns an empty list of each kind of sizeKinds.
func lists() map[string]client.ObjectList {
	return map[string]client.ObjectList{
		v1alpha1.TierKind:            &v1alpha1.TierList{},
		v1alpha1.BucketKind:          &v1alpha1.BucketList{},
		v1alpha1.BucketLifecycleKind: &v1alpha1.BucketLifecycleList{},
		usageKind:                    &v1alpha1.ProviderConfigUsageList{},
		recordKind:                   &v1alpha1.CustodyRecordList{},
	}
}

// An objectSize is how many objects of a kind there are in the benchmark's
// namespace and their JSON size, without managed fields, as the cache of
// the program under test holds them.
type objectSize struct {
	count int
	bytes int
}

// mean returns the mean size of one object in bytes.
func (s objectSize) mean() float64 {
	if s.count == 0 {
		return 0
	}
	return float64(s.bytes) / float64(s.count)
}

// objectSizes lists each kind of sizeKinds in the benchmark's namespace,
// and every custody record.
func objectSizes(ctx context.Context, c client.Reader) (map[string]objectSize, error) {
	out := map[string]objectSize{}
	for kind, l := range lists() {
		var opts []client.ListOption
		if kind != recordKind {
			opts = append(opts, client.InNamespace(benchNS))
		}
		if err := c.List(ctx, l, opts...); err != nil {
			return nil, errors.Wrapf(err, "cannot list %ss", kind)
		}
		s, err := sizeOf(l)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot measure %ss", kind)
		}
		out[kind] = s
	}
	return out, nil
}

// sizeOf sums the JSON sizes of the items of l without managed fields.
func sizeOf(l client.ObjectList) (objectSize, error) {
	var items []client.Object
	switch t := l.(type) {
	case *v1alpha1.TierList:
		items = ptrs(t.Items)
	case *v1alpha1.BucketList:
		items = ptrs(t.Items)
	case *v1alpha1.BucketLifecycleList:
		items = ptrs(t.Items)
	case *v1alpha1.ProviderConfigUsageList:
		items = ptrs(t.Items)
	case *v1alpha1.CustodyRecordList:
		items = ptrs(t.Items)
	default:
		return objectSize{}, errors.Errorf("no sizes for %T", l)
	}
	s := objectSize{count: len(items)}
	for _, o := range items {
		o.SetManagedFields(nil)
		b, err := json.Marshal(o)
		if err != nil {
			return objectSize{}, errors.Wrap(err, "cannot encode an object")
		}
		s.bytes += len(b)
	}
	return s, nil
}

// ptrs returns pointers to each item, as client.Objects.
func ptrs[T any, P interface {
	*T
	client.Object
}](items []T) []client.Object {
	out := make([]client.Object, len(items))
	for i := range items {
		out[i] = P(&items[i])
	}
	return out
}

// sizesLine renders sizes: the mean JSON size by kind and the total.
func sizesLine(sizes map[string]objectSize) string {
	if len(sizes) == 0 {
		return "not measured"
	}
	parts := make([]string, 0, len(sizeKinds)+1)
	var total int
	for _, k := range sizeKinds {
		s := sizes[k]
		parts = append(parts, fmt.Sprintf("%s %d x %.0f B", k, s.count, s.mean()))
		total += s.bytes
	}
	return strings.Join(parts, ", ") + "; " + mib(float64(total)) + " in all"
}

// watched are the resources whose open watches the report gives: those
// the provider caches. Besides the program under test, the benchmark
// watches Tiers, Buckets and BucketLifecycles, and the API server itself
// Namespaces, Secrets and CustomResourceDefinitions.
var watched = map[string]bool{
	"tiers": true, "buckets": true, "bucketlifecycles": true, "bucketaccesses": true, "providerconfigs": true,
	"clusterproviderconfigs": true, "providerconfigusages": true, "custodyrecords": true, "secrets": true, "namespaces": true,
	"customresourcedefinitions": true,
}

// watches returns the watches open on the API server by resource, of the
// resources in watched.
func (r *run) watches(ctx context.Context) (map[string]float64, error) {
	s, err := r.apiStats(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for k, v := range s.by("apiserver_longrunning_requests", "resource", map[string]string{"verb": "WATCH"}) {
		if watched[k] {
			out[k] = v
		}
	}
	return out, nil
}

// watchesLine renders watches by resource, sorted.
func watchesLine(w map[string]float64) string { return joinSorted(w, "%s %.0f") }
