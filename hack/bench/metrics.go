package main

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A sample is one line of the Prometheus text format.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

// samples is a scraped /metrics page.
type samples []sample

// parseMetrics parses the Prometheus text format. Comments, blank and
// malformed lines are skipped.
func parseMetrics(text string) samples {
	var out samples
	for _, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		if s, ok := parseLine(line); ok {
			out = append(out, s)
		}
	}
	return out
}

// parseLine parses `name{a="b",c="d"} value [timestamp]`.
func parseLine(line string) (sample, bool) {
	s := sample{labels: map[string]string{}}
	rest := line
	if i := strings.IndexByte(line, '{'); i >= 0 {
		s.name = line[:i]
		var ok bool
		if rest, ok = parseLabels(line[i+1:], s.labels); !ok {
			return sample{}, false
		}
	} else {
		name, r, ok := strings.Cut(line, " ")
		if !ok {
			return sample{}, false
		}
		s.name, rest = name, r
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return sample{}, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return sample{}, false
	}
	s.value = v
	return s, true
}

// parseLabels reads `a="b",c="d"}` into labels and returns what follows
// the closing brace.
func parseLabels(text string, labels map[string]string) (string, bool) {
	for {
		text = strings.TrimLeft(text, ", ")
		if strings.HasPrefix(text, "}") {
			return text[1:], true
		}
		key, rest, ok := strings.Cut(text, `="`)
		if !ok {
			return "", false
		}
		var b strings.Builder
		i := 0
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				b.WriteByte(unescape(rest[i]))
				continue
			}
			b.WriteByte(rest[i])
		}
		if i == len(rest) {
			return "", false
		}
		labels[key] = b.String()
		text = rest[i+1:]
	}
}

// unescape returns the byte a backslash escape in a label value stands
// for: \n is a newline, \\ and \" are themselves.
func unescape(c byte) byte {
	if c == 'n' {
		return '\n'
	}
	return c
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
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read %s", url)
	}
	return parseMetrics(string(b)), nil
}
