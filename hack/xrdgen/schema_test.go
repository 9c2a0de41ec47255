package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBoundQuantities(t *testing.T) {
	quantity := func() map[string]any { return map[string]any{"x-kubernetes-int-or-string": true} }
	cases := map[string]struct {
		in, want map[string]any
	}{
		"NestedInListItems": {
			in: map[string]any{"properties": map[string]any{"buckets": map[string]any{"items": map[string]any{
				"properties": map[string]any{"quota": quantity(), "name": map[string]any{"type": "string"}}}}}},
			want: map[string]any{"properties": map[string]any{"buckets": map[string]any{"items": map[string]any{
				"properties": map[string]any{"quota": map[string]any{"x-kubernetes-int-or-string": true, "maxLength": quantityMaxLength},
					"name": map[string]any{"type": "string"}}}}}},
		},
		"KeepsAMaxLengthSet": {
			in:   map[string]any{"x-kubernetes-int-or-string": true, "maxLength": 8},
			want: map[string]any{"x-kubernetes-int-or-string": true, "maxLength": 8},
		},
		"LeavesStringsAlone": {
			in:   map[string]any{"type": "string"},
			want: map[string]any{"type": "string"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			boundQuantities(tc.in)
			if diff := cmp.Diff(tc.want, tc.in); diff != "" {
				t.Errorf("boundQuantities(): -want, +got:\n%s", diff)
			}
		})
	}
}
