package custody

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// Names are the RustFS names a resource writes or refers to, checked
// against its namespace's slice before anything is read.
type Names struct {
	// Tiers the resource manages (a Tier's name).
	Tiers []string

	// Buckets the resource manages or configures.
	Buckets []string

	// StorageClasses are the tiers a lifecycle's transitions name; a
	// shared tier is allowed too.
	StorageClasses []string
}

// Selects reports whether sel, a ClusterProviderConfig's namespaceSelector,
// selects a namespace with labels l. A nil selector selects every namespace.
// An invalid selector is an error, so that it selects nothing.
func Selects(sel *metav1.LabelSelector, l map[string]string) (bool, error) {
	if sel == nil {
		return true, nil
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return false, errors.Wrap(err, "invalid namespaceSelector")
	}
	return s.Matches(labels.Set(l)), nil
}

// Outside describes every name of n outside namespace ns's slice under t
// (naming.Slice): none with nameScope Cluster. With NamespacePrefix, tiers
// and buckets must be in the slice, and storage classes must be tiers of
// the slice or one of t.SharedTiers. An empty name, not known yet (an
// external name before the first reconcile sets it), is not checked.
func Outside(ns string, t v1alpha1.TenancySettings, n Names) []string {
	if t.NameScope != v1alpha1.NameScopeNamespacePrefix {
		return nil
	}
	s := naming.SliceOf(ns)
	shared := func(name string) bool { return s.HasTier(name) || slices.Contains(t.SharedTiers, name) }
	out := outside(n.Tiers, s.HasTier, "tier %q does not start with %q", s.TierPrefix)
	out = append(out, outside(n.Buckets, s.HasBucket, "bucket %q does not start with %q", s.BucketPrefix)...)
	return append(out, outside(n.StorageClasses, shared,
		"storage class %q is neither a tier starting with %q nor a shared tier", s.TierPrefix)...)
}

// outside describes, with format, every name that is known and not in.
func outside(names []string, in func(string) bool, format, prefix string) []string {
	var out []string
	for _, name := range names {
		if name != "" && !in(name) {
			out = append(out, fmt.Sprintf(format, name, prefix))
		}
	}
	return out
}

func sliceMessage(ns, config string, outside []string) string {
	return fmt.Sprintf("%s gives each namespace its own names (nameScope: NamespacePrefix), and %s, so nothing is read "+
		"or written. Use names that start with %q for buckets and %q for tiers, or a shared tier the %s lists.",
		config, strings.Join(outside, "; "), naming.SliceOf(ns).BucketPrefix, naming.SliceOf(ns).TierPrefix, config)
}

func notSelectedMessage(ns, config string) string {
	return fmt.Sprintf("%s does not serve namespace %s: its namespaceSelector does not select the namespace's labels, "+
		"so nothing is read or written. Use a ProviderConfig this namespace may use, or ask the platform team to "+
		"label the namespace.", config, ns)
}

func selectorMessage(ns, config string, err error) string {
	return fmt.Sprintf("%s cannot decide whether it serves namespace %s (%v), so nothing is read or written. "+
		"Ask the platform team to fix the ClusterProviderConfig's namespaceSelector, or to grant the provider get, "+
		"list and watch on namespaces (docs/multi-tenancy.md).", config, ns, err)
}
