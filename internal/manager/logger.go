package manager

import (
	"github.com/go-logr/logr"
)

// Deferred returns l with its names and values kept aside until a line is
// written: WithName and WithValues then cost a small slice, not a copy of
// the sink's encoder. Every reconcile adds values (the request, the
// controller) to loggers that write nothing unless --debug is set; zap
// copies its encoder and buffer for each, about a sixth of what the
// provider allocated while it polled (docs/performance.md, "Allocations
// while polling"). l's verbosity (V) is not kept: pass a root logger.
func Deferred(l logr.Logger) logr.Logger {
	s := l.GetSink()
	if s == nil {
		return l
	}
	// The sink was initialised by l's logr.New; it reports callers one
	// frame further out, past deferred's own Info and Error.
	return logr.New(&deferred{sink: withCallDepth(s, 1)})
}

// withCallDepth returns s reporting callers depth frames further out, when
// it can.
func withCallDepth(s logr.LogSink, depth int) logr.LogSink {
	if c, ok := s.(logr.CallDepthLogSink); ok {
		return c.WithCallDepth(depth)
	}
	return s
}

// A deferred is a logr.LogSink that applies its names and values to the
// sink it wraps only when it writes a line.
type deferred struct {
	sink   logr.LogSink
	names  []string
	values []any
}

// Init does nothing: the wrapped sink is initialised already (Deferred).
func (d *deferred) Init(logr.RuntimeInfo) {}

func (d *deferred) Enabled(level int) bool { return d.sink.Enabled(level) }

func (d *deferred) Info(level int, msg string, kv ...any) { d.resolve().Info(level, msg, kv...) }

func (d *deferred) Error(err error, msg string, kv ...any) { d.resolve().Error(err, msg, kv...) }

func (d *deferred) WithValues(kv ...any) logr.LogSink {
	c := *d
	c.values = append(d.values[:len(d.values):len(d.values)], kv...)
	return &c
}

func (d *deferred) WithName(name string) logr.LogSink {
	c := *d
	c.names = append(d.names[:len(d.names):len(d.names)], name)
	return &c
}

func (d *deferred) WithCallDepth(depth int) logr.LogSink {
	c := *d
	c.sink = withCallDepth(d.sink, depth)
	return &c
}

// resolve returns the wrapped sink with d's names and values.
func (d *deferred) resolve() logr.LogSink {
	s := d.sink
	for _, n := range d.names {
		s = s.WithName(n)
	}
	if len(d.values) > 0 {
		s = s.WithValues(d.values...)
	}
	return s
}
