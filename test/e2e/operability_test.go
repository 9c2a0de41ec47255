package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// events returns, per reason, how many times an event about o was raised
// (the API server folds repeats into one Event whose count grows).
func (w *world) events(g gomega.Gomega, o client.Object) map[string]int32 {
	l := &corev1.EventList{}
	g.Expect(env.Client.List(w.ctx, l, client.InNamespace(o.GetNamespace()))).To(gomega.Succeed())
	out := map[string]int32{}
	for _, e := range l.Items {
		if e.InvolvedObject.UID == o.GetUID() {
			out[e.Reason] += max(e.Count, 1)
		}
	}
	return out
}

// expectQuietPolls lets n poll intervals pass (proved by tier lists) and
// checks that no event about objs was raised in them.
func (w *world) expectQuietPolls(n int, objs ...client.Object) {
	w.t.Helper()
	before := make([]map[string]int32, len(objs))
	for i, o := range objs {
		before[i] = w.settledEvents(o)
	}
	lists := w.local.Count(rustfstest.RouteListTiers)
	w.eventually(func(g gomega.Gomega) {
		g.Expect(w.local.Count(rustfstest.RouteListTiers)).To(gomega.BeNumerically(">=", lists+n), "polls")
	})
	for i, o := range objs {
		if diff := cmp.Diff(before[i], w.events(w.g, o)); diff != "" {
			w.t.Errorf("events about %s over %d polls: want none new, -before +after:\n%s", o.GetName(), n, diff)
		}
	}
}

// settledEvents returns the events about o once a second has passed
// without a new one: events are written asynchronously, so those of the
// changes before the polls may land after the resource is Ready.
func (w *world) settledEvents(o client.Object) map[string]int32 {
	w.t.Helper()
	var got map[string]int32
	w.eventually(func(g gomega.Gomega) {
		first := w.events(g, o)
		time.Sleep(time.Second)
		got = w.events(g, o)
		g.Expect(got).To(gomega.Equal(first), "events about %s still arriving", o.GetName())
	})
	return got
}

// TestEventsOncePerChangeNonePerPoll: with the controllers polling every
// second, a Tier, a Bucket and a BucketLifecycle raise one event per change
// (registered, applied, credentials rotated, remote unhealthy and healthy
// again) and none per poll.
func TestEventsOncePerChangeNonePerPoll(t *testing.T) {
	testenv.Skip(t)
	w := newStoppedWorld(t, shortPoll)
	w.verify = 2 * time.Second
	t.Cleanup(w.startProvider())
	t.Cleanup(w.finish)
	tr := w.tier("events", "EVENTS", withPrefix("events/"))
	b := w.bucket("events-data")
	l := w.lifecycle("events-data", "events-data", []v1alpha1.LifecycleRule{rule("expire", expireAfter(30))})
	w.create(tr, b, l)
	w.waitReady(tr, b, l)
	w.waitHealthy(tr, corev1.ConditionTrue)
	w.expectQuietPolls(4, tr, b, l)
	w.expectEvents(tr, "Registered", 1)
	w.expectEvents(l, "Applied", 1)

	w.create(secret(w.ns, "rotated", rotatedAK, rotatedSK))
	w.eventually(func(g gomega.Gomega) { // the provider writes the Tier too
		w.get(g, tr)
		tr.Spec.ForProvider.CredentialsSecretRef.Name = "rotated"
		g.Expect(env.Client.Update(w.ctx, tr)).To(gomega.Succeed(), "point the Tier at the rotated Secret")
	})
	w.eventually(func(g gomega.Gomega) { g.Expect(w.events(g, tr)["CredentialsRotated"]).To(gomega.Equal(int32(1))) })

	w.remote.SetUser(rotatedAK, rotatedSK) // revoked: no action allowed
	w.waitHealthy(tr, corev1.ConditionFalse)
	w.expectQuietPolls(4, tr)
	w.expectEvents(tr, "RemoteUnhealthy", 1)

	w.remote.SetUser(rotatedAK, rotatedSK, "s3:*")
	w.waitHealthy(tr, corev1.ConditionTrue)
	w.expectQuietPolls(4, tr, b, l)
	w.expectEvents(tr, "RemoteHealthy", 1)
	w.expectEvents(tr, "RemoteUnhealthy", 1)
	w.expectEvents(tr, "CredentialsRotated", 1)
}

// waitHealthy waits for the Tier's RemoteHealthy condition to reach s.
func (w *world) waitHealthy(tr *v1alpha1.Tier, s corev1.ConditionStatus) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		w.get(g, tr)
		g.Expect(tr.GetCondition(v1alpha1.TypeRemoteHealthy).Status).To(gomega.Equal(s), describe(tr.GetCondition(v1alpha1.TypeRemoteHealthy)))
	})
}

// expectEvents checks how many times an event of reason was raised about o.
func (w *world) expectEvents(o client.Object, reason string, n int32) {
	w.t.Helper()
	// Events are written asynchronously; a missing one shows up soon.
	w.eventually(func(g gomega.Gomega) {
		g.Expect(w.events(g, o)[reason]).To(gomega.Equal(n), "%s events about %s", reason, o.GetName())
	})
	w.g.Consistently(func(g gomega.Gomega) { g.Expect(w.events(g, o)[reason]).To(gomega.Equal(n)) }).
		WithTimeout(time.Second).WithPolling(100 * time.Millisecond).Should(gomega.Succeed())
}

// table reads the kubectl view of resource in the world's namespace: the
// API server's Table, with the CRD's printer columns.
func (w *world) table(resource string) *metav1.Table {
	w.t.Helper()
	cfg := rest.CopyConfig(env.Config)
	cfg.GroupVersion = &v1alpha1.SchemeGroupVersion
	cfg.APIPath = "/apis"
	cfg.NegotiatedSerializer = serializer.NewCodecFactory(env.Scheme).WithoutConversion()
	rc, err := rest.RESTClientFor(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	raw, err := rc.Get().Namespace(w.ns).Resource(resource).
		SetHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").DoRaw(context.Background())
	if err != nil {
		w.t.Fatalf("cannot read the %s table: %v", resource, err)
	}
	tb := &metav1.Table{}
	if err := json.Unmarshal(raw, tb); err != nil {
		w.t.Fatalf("cannot decode the %s table: %v", resource, err)
	}
	return tb
}

// cells returns the named columns of the table's row for name.
func cells(tb *metav1.Table, name string, cols ...string) map[string]string {
	idx := map[string]int{}
	for i, c := range tb.ColumnDefinitions {
		idx[c.Name] = i
	}
	out := map[string]string{}
	for _, r := range tb.Rows {
		if len(r.Cells) == 0 || r.Cells[0] != name {
			continue
		}
		for _, c := range cols {
			i, ok := idx[c]
			if !ok {
				out[c] = "(no column)"
				continue
			}
			out[c] = fmt.Sprint(r.Cells[i])
		}
	}
	return out
}

// TestKubectlColumns reads the printer columns of a Ready Tier, Bucket and
// BucketLifecycle through the API server's table view.
func TestKubectlColumns(t *testing.T) {
	testenv.Skip(t)
	w := newStoppedWorld(t, shortPoll)
	w.verify = time.Second
	w.local.SeedTierStats("COLUMNS", rustfstest.TierStat{TotalSize: 4096, NumVersions: 2, NumObjects: 2})
	t.Cleanup(w.startProvider())
	t.Cleanup(w.finish)
	tr := w.tier("columns", "COLUMNS", withPrefix("columns/"))
	b := w.bucket("columns-data")
	l := w.lifecycle("columns-data", "columns-data", []v1alpha1.LifecycleRule{rule("a", expireAfter(30)),
		rule("b", expireAfter(60), withFilter(v1alpha1.LifecycleFilter{Prefix: "logs/"}))})
	w.create(tr, b, l)
	w.waitReady(tr, b, l)
	w.waitHealthy(tr, corev1.ConditionTrue)
	cases := map[string]struct {
		resource, name string
		want           map[string]string
	}{
		"Tier": {resource: "tiers", name: tr.GetName(),
			want: map[string]string{"READY": "True", "CONFLICT": "False", "HEALTHY": "True", "BYTES": "4096", "TIER": "COLUMNS"}},
		"Bucket": {resource: "buckets", name: b.GetName(), want: map[string]string{"READY": "True", "CONFLICT": "False"}},
		"BucketLifecycle": {resource: "bucketlifecycles", name: l.GetName(),
			want: map[string]string{"READY": "True", "RULES": "2", "DEGRADED": "False"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cols := make([]string, 0, len(tc.want))
			for c := range tc.want {
				cols = append(cols, c)
			}
			w.eventually(func(g gomega.Gomega) {
				g.Expect(cells(w.table(tc.resource), tc.name, cols...)).To(gomega.Equal(tc.want))
			})
		})
	}
}
