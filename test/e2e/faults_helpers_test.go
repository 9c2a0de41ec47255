package e2e

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// modes are the RustFS releases the fault scenarios run against.
var modes = []rustfstest.Mode{rustfstest.ModeRC, rustfstest.ModeGA}

// lostAnswers are the ways a write's answer is lost after RustFS applied
// it: the connection reset, the answer cut off, or an error status.
var lostAnswers = map[string]rustfstest.Loss{
	"Reset":     rustfstest.LossReset,
	"Truncated": rustfstest.LossTruncated,
	"Status":    rustfstest.LossStatus,
}

// A history is every value a piece of the emulator's state took, sampled
// every few milliseconds from when it is started until the test ends, with
// repeats collapsed: it shows whether a value ever came back.
type history struct {
	mu     sync.Mutex
	values []string
}

// record samples read until the test ends.
func record(t *testing.T, read func() string) *history {
	h := &history{}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			h.add(read())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
	return h
}

func (h *history) add(v string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.values); n == 0 || h.values[n-1] != v {
		h.values = append(h.values, v)
	}
}

// Values returns the values so far.
func (h *history) Values() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.values)
}

// tierKeys names the credentials tier name holds in the local RustFS,
// without showing a secret: "absent", "remote", "rotated" or "other".
func (w *world) tierKeys(name string) string {
	live, ok := w.local.Tier(name)
	switch {
	case !ok:
		return "absent"
	case live.AccessKey == remoteAK && live.SecretKey == remoteSK:
		return "remote"
	case live.AccessKey == rotatedAK && live.SecretKey == rotatedSK:
		return "rotated"
	}
	return "other"
}

// setExpiration sets the expiration days of the only rule of the
// BucketLifecycle name, retrying on conflicts with the provider's writes.
func (w *world) setExpiration(name string, days int32) {
	w.t.Helper()
	lc := &v1alpha1.BucketLifecycle{}
	lc.SetNamespace(w.ns)
	lc.SetName(name)
	w.eventually(func(g gomega.Gomega) {
		w.get(g, lc)
		lc.Spec.ForProvider.Rules = []v1alpha1.LifecycleRule{rule("expire", expireAfter(days))}
		g.Expect(env.Client.Update(w.ctx, lc)).To(gomega.Succeed())
	})
}

// managed returns every Tier, Bucket and BucketLifecycle of the world's
// namespace.
func (w *world) managed() []managedObject {
	w.t.Helper()
	var out []managedObject
	tiers, buckets, lcs := &v1alpha1.TierList{}, &v1alpha1.BucketList{}, &v1alpha1.BucketLifecycleList{}
	for _, l := range []client.ObjectList{tiers, buckets, lcs} {
		if err := env.Client.List(w.ctx, l, client.InNamespace(w.ns)); err != nil {
			w.t.Fatalf("cannot list %T: %v", l, err)
		}
	}
	for i := range tiers.Items {
		out = append(out, &tiers.Items[i])
	}
	for i := range buckets.Items {
		out = append(out, &buckets.Items[i])
	}
	for i := range lcs.Items {
		out = append(out, &lcs.Items[i])
	}
	return out
}

// acquisitions lists how each object came to manage its RustFS object.
func acquisitions(objs []managedObject) []string {
	var out []string
	for _, o := range objs {
		if s, ok := o.(interface{ GetCustody() *v1alpha1.Custody }); ok && s.GetCustody() != nil {
			out = append(out, o.GetName()+"="+string(s.GetCustody().Acquired))
		}
	}
	return out
}

// createdLongAgo moves o's external-create-succeeded annotation an hour
// back, past the managed reconciler's grace period, in which an object
// not found is taken for one not yet visible.
func (w *world) createdLongAgo(o client.Object) {
	w.t.Helper()
	at := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, meta.AnnotationKeyExternalCreateSucceeded, at)
	if err := env.Client.Patch(w.ctx, o, client.RawPatch(types.MergePatchType, []byte(patch))); err != nil {
		w.t.Fatalf("cannot patch %T %s: %v", o, o.GetName(), err)
	}
}
