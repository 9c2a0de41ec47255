package manager_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/crossplane-contrib/provider-rustfs/internal/manager"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A manager configured as the provider's stops cleanly while its workers
// are busy: controller-runtime v0.23's priority queue can deadlock on
// shutdown (kubernetes-sigs/controller-runtime#3538), after which Start
// reports that its runnables did not end within the grace period.
func TestBusyManagerStops(t *testing.T) {
	testenv.Skip(t)
	for i := range 30 {
		if err := runBusy(t, i); err != nil {
			t.Fatalf("stop %d: %v", i, err)
		}
	}
}

// runBusy starts a manager whose one controller keeps 200 items cycling
// through 20 workers, stops it after a moment and returns what Start
// returned.
func runBusy(t *testing.T, i int) error {
	t.Helper()
	o := manager.Options(manager.Settings{Sync: time.Hour, MetricsAddr: "0", HealthAddr: "0"})
	o.Scheme = env.Scheme
	grace := 5 * time.Second
	o.GracefulShutdownTimeout = &grace
	skip := true
	o.Controller.SkipNameValidation = &skip
	mgr, err := ctrl.NewManager(env.Config, o)
	if err != nil {
		t.Fatal(err)
	}
	again := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{RequeueAfter: time.Millisecond}, nil
	})
	c, err := controller.New(fmt.Sprintf("busy-%d", i), mgr, controller.Options{Reconciler: again, MaxConcurrentReconciles: 20})
	if err != nil {
		t.Fatal(err)
	}
	fill := source.Func(func(_ context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
		for n := range 200 {
			q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Name: fmt.Sprint(n)}})
		}
		return nil
	})
	if err := c.Watch(fill); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	return mgr.Start(ctx)
}
