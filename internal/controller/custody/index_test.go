package custody_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// indexedBucket returns a Bucket of bucket name in namespace ns that uses
// the ProviderConfig of kind and name.
func indexedBucket(ns, name, bucket, kind, config string) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	meta.SetExternalName(b, bucket)
	b.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: kind, Name: config}
	return b
}

// startIndexedCache starts a controller-runtime cache on the API server
// with the Bucket indexes registered as the controllers register them.
func startIndexedCache(t *testing.T, env *testenv.Env) cache.Cache {
	t.Helper()
	c, err := cache.New(env.Config, cache.Options{Scheme: env.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	s, ctx := custody.NewShared(), t.Context()
	if err := s.Index(ctx, c, &v1alpha1.Bucket{}, custody.IndexExternalName, custody.IndexByExternalName, custody.AllNamespaces); err != nil {
		t.Fatal(err)
	}
	if err := s.Index(ctx, c, &v1alpha1.Bucket{}, custody.IndexProviderConfig, custody.IndexByProviderConfig, custody.ProviderConfigScope); err != nil {
		t.Fatal(err)
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		t.Fatal("cache did not sync")
	}
	return c
}

// Every list the controllers make of an index finds the objects of every
// namespace it asks for, and the index holds each value once: the lists
// across all namespaces are how the tenancy rules find the other
// namespaces' claims on a name, so a list that missed one would let a
// namespace take another's bucket.
func TestIndexOnce(t *testing.T) {
	testenv.Skip(t)
	env, err := testenv.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = env.Stop() }()
	c := startIndexedCache(t, env)
	ctx := t.Context()
	pc, cpc := v1alpha1.ProviderConfigKind, v1alpha1.ClusterProviderConfigKind
	create(t, env, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-b"}},
		indexedBucket("team-a", "x", "shared", pc, "rustfs"),
		indexedBucket("team-b", "y", "shared", cpc, "rustfs"),
		indexedBucket("team-b", "z", "other", pc, "rustfs"))
	cases := map[string]struct {
		reason string
		opts   []client.ListOption
		want   []string
	}{
		"BucketInEveryNamespace": {
			reason: "A list by bucket across all namespaces finds the Buckets of both namespaces.",
			opts:   []client.ListOption{client.MatchingFields{custody.IndexExternalName: "shared"}},
			want:   []string{"team-a/x", "team-b/y"},
		},
		"ProviderConfigInItsNamespace": {
			reason: "A list by ProviderConfig in its namespace finds the users in that namespace only.",
			opts:   []client.ListOption{client.InNamespace("team-b"), client.MatchingFields{custody.IndexProviderConfig: custody.ProviderConfigKey(pc, "rustfs")}},
			want:   []string{"team-b/z"},
		},
		"ClusterProviderConfigInEveryNamespace": {
			reason: "A list by ClusterProviderConfig across all namespaces finds its users.",
			opts:   []client.ListOption{client.MatchingFields{custody.IndexProviderConfig: custody.ProviderConfigKey(cpc, "rustfs")}},
			want:   []string{"team-b/y"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			gomega.NewWithT(t).Eventually(func() []string { return listed(ctx, t, c, tc.opts...) }, 10*time.Second, 20*time.Millisecond).
				Should(gomega.Equal(tc.want), tc.reason)
		})
	}
	t.Run("OneValuePerObject", func(t *testing.T) {
		want := []string{"__all_namespaces/other", "__all_namespaces/shared"}
		if diff := cmp.Diff(want, indexValues(ctx, t, c, custody.IndexExternalName)); diff != "" {
			t.Errorf("the index by bucket holds each value once, in the form lists across all namespaces read: -want, +got:\n%s", diff)
		}
	})
}

// create creates objs on the API server.
func create(t *testing.T, env *testenv.Env, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := env.Client.Create(t.Context(), o); err != nil {
			t.Fatal(err)
		}
	}
}

// listed returns namespace/name of the Buckets a cached list with opts
// returns, sorted.
func listed(ctx context.Context, t *testing.T, c cache.Cache, opts ...client.ListOption) []string {
	t.Helper()
	l := &v1alpha1.BucketList{}
	if err := c.List(ctx, l, opts...); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, b := range l.Items {
		out = append(out, b.Namespace+"/"+b.Name)
	}
	slices.Sort(out)
	return out
}

// indexValues returns the values the Bucket informer's index of field
// holds, sorted.
func indexValues(ctx context.Context, t *testing.T, c cache.Cache, field string) []string {
	t.Helper()
	i, err := c.GetInformer(ctx, &v1alpha1.Bucket{})
	if err != nil {
		t.Fatal(err)
	}
	si, ok := i.(toolscache.SharedIndexInformer)
	if !ok {
		t.Fatalf("the informer is a %T, not a SharedIndexInformer", i)
	}
	out := si.GetIndexer().ListIndexFuncValues("field:" + field)
	slices.Sort(out)
	return out
}
