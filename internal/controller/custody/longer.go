package custody

import (
	"context"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Longer returns, sorted, the namespaces that exist and whose names start
// with ns and a '-': under nameScope NamespacePrefix each owns the names
// that start with its own prefix, which ns's prefix also starts
// (naming.Slice Longer). It lists the Namespaces' metadata from the
// manager's cache without copying them, so it makes no API call. Without
// access to Namespaces it returns an error for which NoNamespaceAccess is
// true.
func (n Namespaces) Longer(ctx context.Context, ns string) ([]string, error) {
	if !n.Allowed {
		return nil, errNoNamespaceAccess
	}
	l := &metav1.PartialObjectMetadataList{}
	l.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("NamespaceList"))
	if err := n.Reader.List(ctx, l, client.UnsafeDisableDeepCopy); err != nil {
		return nil, errors.Wrap(err, "cannot list namespaces")
	}
	var out []string
	for i := range l.Items {
		if name := l.Items[i].GetName(); strings.HasPrefix(name, ns+"-") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// NoNamespaceAccess reports whether err says that the provider may not read
// Namespaces.
func NoNamespaceAccess(err error) bool { return errors.Is(err, errNoNamespaceAccess) }
