package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func TestParse(t *testing.T) {
	defaults := flags{poll: time.Minute, rate: 20, sync: time.Hour, metricsAddr: ":8080", healthAddr: "0", memoryLimit: 48 << 20}
	cases := map[string]struct {
		reason string
		args   []string
		env    map[string]string
		want   flags
		err    string
	}{
		"Defaults":     {reason: "The provider's defaults, with its 48Mi soft memory limit.", want: defaults},
		"NoLimit":      {reason: "--memory-limit=0 turns the limit off, as in the provider.", args: []string{"--memory-limit=0"}, want: with(defaults, func(f *flags) { f.memoryLimit = 0 })},
		"LimitFromEnv": {reason: "MEMORY_LIMIT sets the default, as the provider's --memory-limit.", env: map[string]string{"MEMORY_LIMIT": "0"}, want: with(defaults, func(f *flags) { f.memoryLimit = 0 })},
		"FlagOverEnv":  {reason: "The flag wins over MEMORY_LIMIT.", args: []string{"--memory-limit=64Mi"}, env: map[string]string{"MEMORY_LIMIT": "0"}, want: with(defaults, func(f *flags) { f.memoryLimit = 64 << 20 })},
		"BenchmarkFlags": {reason: "The flags the benchmark passes.", args: []string{"--poll=2m", "--max-reconcile-rate=30", "--metrics-bind-address=127.0.0.1:9", "--pprof-bind-address=127.0.0.1:8"}, want: with(defaults, func(f *flags) {
			f.poll, f.rate, f.metricsAddr, f.pprofAddr = 2*time.Minute, 30, "127.0.0.1:9", "127.0.0.1:8"
		})},
		"BadLimit":         {reason: "A limit that is no quantity is refused, naming the flag.", args: []string{"--memory-limit=lots"}, err: `--memory-limit="lots"`},
		"NegativeLimit":    {reason: "A negative limit is refused.", args: []string{"--memory-limit=-1Mi"}, err: `--memory-limit="-1Mi"`},
		"NoWorkers":        {reason: "A controller needs at least one worker.", args: []string{"--max-reconcile-rate=0"}, err: "--max-reconcile-rate=0"},
		"ProviderOnlyFlag": {reason: "RustFS flags are the provider's; the floor refuses them rather than ignore them.", args: []string{"--tier-verify-interval=1m"}, err: "cannot parse the command line"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parse(tc.args, func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("%s\nparse: got error %v, want one naming %q", tc.reason, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s\nparse: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(flags{})); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func with(f flags, m func(*flags)) flags {
	m(&f)
	return f
}

func TestReaderReconcile(t *testing.T) {
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	tier := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "t"}}
	boom := errors.New("boom")
	cases := map[string]struct {
		reason string
		kube   client.Reader
		want   reconcile.Result
		err    error
	}{
		"Found": {reason: "An object read is read again after one poll interval.",
			kube: fake.NewClientBuilder().WithScheme(s).WithObjects(tier).Build(), want: reconcile.Result{RequeueAfter: 2 * time.Minute}},
		"Deleted": {reason: "A deleted object is forgotten, without an error.",
			kube: fake.NewClientBuilder().WithScheme(s).Build()},
		"ReadFails": {reason: "Any other error is returned, so the work queue retries.",
			kube: fake.NewClientBuilder().WithScheme(s).WithInterceptorFuncs(interceptor.Funcs{
				Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
					return boom
				},
			}).Build(), err: boom},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := &reader{kube: tc.kube, new: func() client.Object { return &v1alpha1.Tier{} }, poll: 2 * time.Minute}
			got, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "a", Name: "t"}})
			if !errors.Is(err, tc.err) {
				t.Errorf("%s\nerror: got %v, want %v", tc.reason, err, tc.err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// The floor runs a controller of each of the provider's, by the same name,
// so that the benchmark reads the same metrics of both.
func TestKindsAreTheProvidersControllers(t *testing.T) {
	var got []string
	for _, k := range kinds() {
		got = append(got, k.name)
	}
	want := []string{
		"managed/tier.rustfs.m.crossplane.io", "managed/bucket.rustfs.m.crossplane.io",
		"managed/bucketlifecycle.rustfs.m.crossplane.io", "managed/bucketaccess.rustfs.m.crossplane.io",
		"providerconfig/providerconfig.rustfs.m.crossplane.io", "providerconfig/clusterproviderconfig.rustfs.m.crossplane.io",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("controllers: -want +got:\n%s", diff)
	}
}
