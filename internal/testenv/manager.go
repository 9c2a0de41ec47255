package testenv

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/manager"
)

// A SetupFn sets up one of the provider's controllers, as the binary does.
type SetupFn func(ctrl.Manager, options.Options) error

// StartManager starts a controller manager configured exactly as the
// provider binary configures it (no Secret data cache, management policies
// on), runs the given controller setups against it, and stops it when the
// test ends. Setups run directly, not behind the CRD gate.
func (e *Env) StartManager(t testing.TB, s options.ControllerSettings, setups ...SetupFn) ctrl.Manager {
	t.Helper()
	return e.StartManagerLogging(t, os.Stderr, s, setups...)
}

// StartManagerLogging is StartManager with the controllers' logs written
// to log, so a test can inspect them (for example, that they never hold a
// secret value).
func (e *Env) StartManagerLogging(t testing.TB, log io.Writer, s options.ControllerSettings, setups ...SetupFn) ctrl.Manager {
	t.Helper()
	return e.StartManagerObserved(t, log, nil, s, setups...)
}

// StartManagerObserved is StartManagerLogging with every request the
// manager sends to the API server recorded in requests (when not nil).
func (e *Env) StartManagerObserved(t testing.TB, log io.Writer, requests *RequestLog, s options.ControllerSettings, setups ...SetupFn) ctrl.Manager {
	t.Helper()
	mgr, stop := e.StartManagerStoppable(t, log, requests, s, setups...)
	t.Cleanup(stop)
	return mgr
}

// StartManagerStoppable is StartManagerObserved without the cleanup: it
// returns a function that stops the manager and waits until it stopped, as
// a crashed provider stops, which the caller must call before the test
// ends. Tests use it to restart the provider in the middle of an operation.
func (e *Env) StartManagerStoppable(t testing.TB, log io.Writer, requests *RequestLog, s options.ControllerSettings, setups ...SetupFn) (ctrl.Manager, func()) {
	t.Helper()
	if s.MaxReconcileRate == 0 {
		s.MaxReconcileRate = 50
	}
	mo := manager.Options(manager.Settings{Sync: time.Hour, MetricsAddr: "0", HealthAddr: "0"})
	mo.Scheme = e.Scheme
	zl := zap.New(zap.UseDevMode(true), zap.WriteTo(log))
	mo.Logger = zl.WithName("controller-runtime")
	// Each manager in a test process registers its controllers' names
	// once; several managers may reuse them.
	skip := true
	mo.Controller.SkipNameValidation = &skip
	cfg := e.Config
	if requests != nil {
		cfg = requests.wrap(cfg)
	}
	mgr, err := ctrl.NewManager(cfg, mo)
	if err != nil {
		t.Fatalf("cannot create manager: %v", err)
	}
	events, err := manager.StartEvents(mgr.GetConfig(), mgr.GetHTTPClient(), ctrl.Log.WithName("events"))
	if err != nil {
		t.Fatalf("cannot record events: %v", err)
	}
	o := options.New(logging.NewLogrLogger(zl.WithName("test")), s)
	o.Events = events
	for _, setup := range setups {
		if err := setup(mgr, o); err != nil {
			events.Shutdown()
			t.Fatalf("cannot set up controller: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := mgr.Start(ctx); err != nil {
			t.Errorf("manager stopped: %v", err)
		}
	}()
	stop := func() { cancel(); <-done; events.Shutdown() }
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		stop()
		t.Fatal("manager cache did not sync")
	}
	return mgr, stop
}
