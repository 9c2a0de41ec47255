package manager

import (
	"net/http"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// EventCacheSize is how many entries each of the event correlator's caches
// keeps (client-go's default is 4,096): the spam filter's per object, the
// aggregator's per object and reason, and the one per distinct event that
// turns a repeat into a count on the Event already recorded. A resource's
// event repeats with its reconcile: within seconds while it backs off, at
// most a minute later (crossplane-runtime's longest backoff, the default
// poll). At the default --max-reconcile-rate=20 about 1,000 other events
// fit in 50 s, so a repeat is still counted unless more resources than
// that emit events in between; then it is recorded as a new Event, at the
// same request cost (docs/performance.md, "A smaller live heap").
const EventCacheSize = 1024

// NewEvents returns client-go's event broadcaster with correlation caches
// of EventCacheSize entries, not yet recording. When log is enabled at
// debug level (V(1)), it logs every event there, as controller-runtime's
// own broadcaster does.
func NewEvents(log logr.Logger) record.EventBroadcaster {
	b := record.NewBroadcaster(record.WithCorrelatorOptions(record.CorrelatorOptions{LRUCacheSize: EventCacheSize}))
	if debug := log.V(1); debug.Enabled() {
		b.StartEventWatcher(func(e *corev1.Event) {
			debug.Info(e.Message, "type", e.Type, "object", e.InvolvedObject, "reason", e.Reason)
		})
	}
	return b
}

// StartEvents returns a broadcaster of NewEvents that records to the API
// server of cfg through hc, as controller-runtime's own does. The
// controllers record through it (options.Options Events); the manager's
// broadcaster, which controller-runtime v0.23 sizes only through a
// deprecated option that it then never shuts down, is left to leader
// election. The caller shuts it down once the manager stopped. log is
// NewEvents'.
func StartEvents(cfg *rest.Config, hc *http.Client, log logr.Logger) (record.EventBroadcaster, error) {
	c, err := corev1client.NewForConfigAndClient(cfg, hc)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create the Events client")
	}
	b := NewEvents(log)
	b.StartRecordingToSink(&corev1client.EventSinkImpl{Interface: c.Events(corev1.NamespaceAll)})
	return b, nil
}
