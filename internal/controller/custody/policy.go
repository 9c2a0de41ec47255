package custody

import (
	"context"
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
// the slice or one of t.SharedTiers. taken says, for a name that starts
// with the slice's prefix, why it is not ns's all the same (a longer
// namespace prefix owns it, see Taken); a name it does not hold is ns's.
// An empty name, not known yet (an external name before the first
// reconcile sets it), is not checked.
func Outside(ns string, t v1alpha1.TenancySettings, n Names, taken map[string]string) []string {
	if t.NameScope != v1alpha1.NameScopeNamespacePrefix {
		return nil
	}
	s := naming.SliceOf(ns)
	var out []string
	for _, name := range n.Tiers {
		out = appendOutside(out, "tier", name, s.TierPrefix, s.HasTier(name), taken[name])
	}
	for _, name := range n.Buckets {
		out = appendOutside(out, "bucket", name, s.BucketPrefix, s.HasBucket(name), taken[name])
	}
	for _, name := range n.StorageClasses {
		if name == "" || slices.Contains(t.SharedTiers, name) {
			continue
		}
		if !s.HasTier(name) {
			out = append(out, fmt.Sprintf("storage class %q is neither a tier starting with %q nor a shared tier", name, s.TierPrefix))
		} else if taken[name] != "" {
			out = append(out, fmt.Sprintf("storage class %q %s", name, taken[name]))
		}
	}
	return out
}

// appendOutside appends to out why name, of kind, is not in the slice
// with prefix, if it is known and not: it does not start with prefix
// (has), or taken says why it is not the slice's all the same.
func appendOutside(out []string, kind, name, prefix string, has bool, taken string) []string {
	switch {
	case name == "":
	case !has:
		out = append(out, fmt.Sprintf("%s %q does not start with %q", kind, name, prefix))
	case taken != "":
		out = append(out, fmt.Sprintf("%s %q %s", kind, name, taken))
	}
	return out
}

// Why a name that starts with a slice's prefix is not the slice's
// namespace's (Taken).
const (
	takenLonger  = "belongs to a longer namespace prefix"
	takenUnknown = "may belong to a longer namespace prefix, which the provider cannot tell without access to Namespaces"
)

// Taken returns, for every name of n that starts with namespace ns's
// prefix, why a longer namespace prefix takes it from ns (naming.Slice
// Longer): the longest prefix wins among the namespaces that exist. It
// asks r whether each longer namespace exists, from the cache; without
// access to Namespaces, a name that a longer prefix could own is taken,
// as the provider cannot tell. Names no longer prefix takes are absent.
func Taken(ctx context.Context, r NamespaceReader, ns string, n Names) (map[string]string, error) {
	s := naming.SliceOf(ns)
	taken := map[string]string{}
	for _, name := range slices.Concat(n.Tiers, n.Buckets, n.StorageClasses) {
		for _, longer := range s.Longer(name) {
			ok, err := r.Exists(ctx, longer)
			if errors.Is(err, errNoNamespaceAccess) {
				taken[name] = takenUnknown
				break
			}
			if err != nil {
				return nil, err
			}
			if ok {
				taken[name] = takenLonger
				break
			}
		}
	}
	return taken, nil
}

func sliceMessage(ns, config string, outside []string) string {
	return fmt.Sprintf("%s gives each namespace its own names (nameScope: NamespacePrefix), and %s, so nothing is read "+
		"or written. Use names that start with %q for buckets and %q for tiers and that no longer namespace prefix "+
		"owns, or a shared tier the %s lists.",
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
