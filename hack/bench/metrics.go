package main

import (
	"context"
	"io"
	"net/http"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A sample is one series of a /metrics page and its value.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

// samples is a scraped /metrics page.
type samples []sample

// parseMetrics parses a page of the Prometheus text format (expfmt) into
// one sample per counter, gauge or untyped series, and one NAME_count per
// summary (go_gc_duration_seconds_count: the collections so far);
// histograms, which the benchmark does not read, are left out.
func parseMetrics(page io.Reader) (samples, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(page)
	if err != nil {
		return nil, errors.Wrap(err, "cannot parse the metrics")
	}
	var out samples
	for name, f := range families {
		for _, m := range f.GetMetric() {
			v, ok := value(m)
			if m.GetSummary() != nil {
				out = append(out, sample{name: name + "_count", value: float64(m.GetSummary().GetSampleCount())})
				continue
			}
			if !ok {
				continue
			}
			labels := make(map[string]string, len(m.GetLabel()))
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			out = append(out, sample{name: name, labels: labels, value: v})
		}
	}
	return out, nil
}

// value is the value of a counter, gauge or untyped series.
func value(m *dto.Metric) (float64, bool) {
	switch {
	case m.GetCounter() != nil:
		return m.GetCounter().GetValue(), true
	case m.GetGauge() != nil:
		return m.GetGauge().GetValue(), true
	case m.GetUntyped() != nil:
		return m.GetUntyped().GetValue(), true
	}
	return 0, false
}

// sum adds the values of the samples named name whose labels include
// match.
func (ss samples) sum(name string, match map[string]string) float64 {
	var v float64
	for _, s := range ss {
		if s.name == name && matches(s.labels, match) {
			v += s.value
		}
	}
	return v
}

// by adds the values of the samples named name whose labels include match,
// by the value of label.
func (ss samples) by(name, label string, match map[string]string) map[string]float64 {
	out := map[string]float64{}
	for _, s := range ss {
		if s.name == name && matches(s.labels, match) {
			out[s.labels[label]] += s.value
		}
	}
	return out
}

func matches(labels, match map[string]string) bool {
	for k, v := range match {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// scrape GETs a /metrics page with c.
func scrape(ctx context.Context, c *http.Client, url string) (samples, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot scrape %s", url)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, errors.Errorf("cannot scrape %s: %s", url, resp.Status)
	}
	ss, err := parseMetrics(resp.Body)
	return ss, errors.Wrapf(err, "cannot read %s", url)
}
