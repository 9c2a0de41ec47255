package testenv

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Shown renders the status and the annotations, which a secret must never
// reach, and leaves out the spec.
func TestShown(t *testing.T) {
	tr := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"a": "in-annotation"}}}
	tr.Spec.ForProvider.Name = "IN-SPEC"
	tr.Status.AtProvider.AccessKeyHash = "in-status"
	got := Shown(t, tr)
	for want, in := range map[string]bool{"in-annotation": true, "in-status": true, "IN-SPEC": false} {
		if strings.Contains(got, want) != in {
			t.Errorf("Shown(...) = %s: contains %q: want %t", got, want, in)
		}
	}
}
