// Package manager holds the controller manager's options: the cache (no
// Secret data, trimmed objects), the work queue, the metrics and probe
// endpoints, and leader election. The controllers' own options are in internal/controller/options.
package manager

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// Settings are the controller manager's settings.
type Settings struct {
	Sync           time.Duration
	MetricsAddr    string
	HealthAddr     string
	LeaderElection bool
}

// Options returns the controller manager options the provider runs with.
// Secret data is never cached: credentials are read through the manager's
// API reader and Secret changes are watched as metadata only. Cached objects
// are trimmed (see trim). The client reads its own writes (OwnWrites).
func Options(s Settings) ctrl.Options {
	lease, renew := 60*time.Second, 50*time.Second
	return ctrl.Options{
		Cache: cache.Options{
			SyncPeriod:       &s.Sync,
			DefaultTransform: trim,
		},
		// controller-runtime v0.23's priority queue can deadlock when the
		// manager stops (kubernetes-sigs/controller-runtime#3538, fixed in
		// v0.25): the provider then hangs for the whole grace period. The
		// rate-limited work queue stops cleanly.
		Controller:                 config.Controller{UsePriorityQueue: ptr.To(false)},
		Client:                     client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
		NewClient:                  NewClient,
		Metrics:                    metricsserver.Options{BindAddress: s.MetricsAddr},
		HealthProbeBindAddress:     s.HealthAddr,
		LeaderElection:             s.LeaderElection,
		LeaderElectionID:           "crossplane-leader-election-provider-rustfs",
		LeaderElectionResourceLock: resourcelock.LeasesResourceLock,
		LeaseDuration:              &lease,
		RenewDeadline:              &renew,
		// The binary exits as soon as the manager stops, so a replica
		// that is shut down hands the Lease over at once instead of
		// leaving its successor to wait for it to expire.
		LeaderElectionReleaseOnCancel: true,
	}
}
