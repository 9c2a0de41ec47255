package config

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// The usage events of a burst of new resources make one count of their
// config's users, after the settle time, instead of one each.
func TestUsageEventsCoalesce(t *testing.T) {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	defer q.ShutDown()
	h := coalesced{inner: &resource.EnqueueRequestForProviderConfig{Kind: v1alpha1.ClusterProviderConfigKind}, after: 100 * time.Millisecond}
	for i := range 50 {
		u := &v1alpha1.ProviderConfigUsage{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: fmt.Sprint(i)}}
		u.ProviderConfigReference = xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "platform"}
		h.Create(context.Background(), event.TypedCreateEvent[client.Object]{Object: u}, q)
	}
	if n := q.Len(); n != 0 {
		t.Fatalf("right after the events: want nothing queued yet, got %d requests", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for q.Len() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // any second request would be queued by now too
	if n := q.Len(); n != 1 {
		t.Fatalf("after the settle time: want 1 request, got %d", n)
	}
	got, _ := q.Get()
	if diff := cmp.Diff(reconcile.Request{NamespacedName: types.NamespacedName{Name: "platform"}}, got); diff != "" {
		t.Errorf("request: -want, +got:\n%s", diff)
	}
}
