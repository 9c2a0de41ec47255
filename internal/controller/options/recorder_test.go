package options

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
)

// A manager stands in for the manager: its scheme, and its own recorder.
type manager struct{ own *record.FakeRecorder }

func (m manager) GetScheme() *runtime.Scheme                      { return scheme.Scheme }
func (m manager) GetEventRecorderFor(string) record.EventRecorder { return m.own }

// The controllers record Events through Options.Events when it is set (the
// provider's broadcaster with small correlation caches), and through the
// manager's only when it is not.
func TestRecorder(t *testing.T) {
	cases := map[string]struct {
		reason string
		events bool
		want   []string // where the event went: "events" or "manager"
	}{
		"Events":  {reason: "With Events set, the event goes to its broadcaster, not the manager's.", events: true, want: []string{"events:ctl:Applied"}},
		"Manager": {reason: "Without Events, the manager's recorder records it.", want: []string{"manager:Normal Applied done"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := manager{own: record.NewFakeRecorder(1)}
			got := make(chan string, 1)
			o := Options{}
			if tc.events {
				b := record.NewBroadcaster()
				defer b.Shutdown()
				b.StartEventWatcher(func(e *corev1.Event) { got <- "events:" + e.Source.Component + ":" + e.Reason })
				o.Events = b
			}
			obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "cm", UID: "u"}}
			o.Recorder(m, "ctl").Event(obj, event.Normal("Applied", "done"))
			var out []string
			select {
			case e := <-got:
				out = append(out, e)
			case e := <-m.own.Events:
				out = append(out, "manager:"+e)
			case <-time.After(10 * time.Second):
			}
			if diff := cmp.Diff(tc.want, out); diff != "" {
				t.Errorf("%s\nRecorder(...).Event(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
