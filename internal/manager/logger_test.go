package manager

import (
	"errors"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
)

// counting is a logr.LogSink that counts the calls of WithValues and
// WithName that reach it.
type counting struct {
	logr.LogSink
	calls *int
}

// Init does nothing: funcr.New initialised the sink.
func (c counting) Init(logr.RuntimeInfo) {}

func (c counting) WithValues(kv ...any) logr.LogSink {
	*c.calls++
	return counting{LogSink: c.LogSink.WithValues(kv...), calls: c.calls}
}

func (c counting) WithName(name string) logr.LogSink {
	*c.calls++
	return counting{LogSink: c.LogSink.WithName(name), calls: c.calls}
}

func (c counting) WithCallDepth(depth int) logr.LogSink {
	return counting{LogSink: c.LogSink.(logr.CallDepthLogSink).WithCallDepth(depth), calls: c.calls}
}

// recording returns a deferred logger over funcr at verbosity 0, the lines it
// writes, and the count of WithValues and WithName calls that reached funcr.
func recording() (logr.Logger, *[]string, *int) {
	var lines []string
	calls := new(int)
	f := funcr.New(func(prefix, args string) { lines = append(lines, prefix+" "+args) }, funcr.Options{})
	return Deferred(logr.New(counting{LogSink: f.GetSink(), calls: calls})), &lines, calls
}

// deferredCases are TestDeferred's cases.
var deferredCases = map[string]struct {
	reason    string
	log       func(l logr.Logger)
	wantLines []string
	wantCalls int
}{
	"NamesAndValuesInOrder": {
		reason: "A written line carries the names and values given before it, in their order.",
		log: func(l logr.Logger) {
			l.WithName("a").WithValues("k", 1).WithName("b").WithValues("j", 2).Info("written")
		},
		wantLines: []string{`a/b "level"=0 "msg"="written" "k"=1 "j"=2`},
		wantCalls: 3,
	},
	"Error": {
		reason: "An error line carries the values and the error.",
		log: func(l logr.Logger) {
			l.WithValues("k", 1).Error(errors.New("boom"), "failed")
		},
		wantLines: []string{` "msg"="failed" "error"="boom" "k"=1`},
		wantCalls: 1,
	},
	"SiblingsDoNotShareValues": {
		reason: "Two loggers made from one parent each keep only their own values.",
		log: func(l logr.Logger) {
			// Three appends leave the parent's slice with room to spare.
			p := l.WithValues("p", 0).WithValues("q", 1).WithValues("r", 2)
			x, y := p.WithValues("x", 1), p.WithValues("y", 2)
			x.Info("x")
			y.Info("y")
		},
		wantLines: []string{
			` "level"=0 "msg"="x" "p"=0 "q"=1 "r"=2 "x"=1`,
			` "level"=0 "msg"="y" "p"=0 "q"=1 "r"=2 "y"=2`,
		},
		wantCalls: 2,
	},
	"DisabledLevelCostsNothing": {
		reason: "Names and values of a logger that writes nothing never reach the sink.",
		log: func(l logr.Logger) {
			l.WithName("reconciler").WithValues("request", "ns/name").V(1).Info("not written")
		},
	},
}

func TestDeferred(t *testing.T) {
	for name, tc := range deferredCases {
		t.Run(name, func(t *testing.T) {
			l, lines, calls := recording()
			tc.log(l)
			if diff := cmp.Diff(tc.wantLines, *lines); diff != "" {
				t.Errorf("%s\nlines: -want +got:\n%s", tc.reason, diff)
			}
			if *calls != tc.wantCalls {
				t.Errorf("%s\nWithValues and WithName calls reaching the sink: want %d, got %d", tc.reason, tc.wantCalls, *calls)
			}
		})
	}
}

// say writes one line from one place.
func say(l logr.Logger) { l.Info("said") }

func TestDeferredReportsTheCaller(t *testing.T) {
	var lines []string
	f := funcr.New(func(_, args string) { lines = append(lines, args) }, funcr.Options{LogCaller: funcr.All})
	say(f)
	say(Deferred(f))
	if len(lines) != 2 {
		t.Fatalf("want 2 lines, got %q", lines)
	}
	if diff := cmp.Diff(lines[0], lines[1]); diff != "" {
		t.Errorf("A deferred logger reports the caller its sink would report.\nlines: -plain +deferred:\n%s", diff)
	}
}
