package connection

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A SecretError reports a Secret or Secret key that is missing or empty. It
// names the Secret and key, never a value.
type SecretError struct {
	Namespace, Name, Key string
	Problem              string
}

// Error describes what is wrong and where.
func (e *SecretError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("Secret %s/%s %s", e.Namespace, e.Name, e.Problem)
	}
	return fmt.Sprintf("key %q of Secret %s/%s %s", e.Key, e.Namespace, e.Name, e.Problem)
}

// IsSecretError reports whether err is, or wraps, a *SecretError: a problem
// only a change of the Secret or of the reference to it can fix.
func IsSecretError(err error) bool {
	var se *SecretError
	return errors.As(err, &se)
}

// SecretValues are the trimmed values read from one Secret.
type SecretValues struct {
	// Values by key, trimmed of surrounding white space.
	Values map[string]string

	// ResourceVersion of the Secret they were read from.
	ResourceVersion string
}

// ReadSecret reads the named keys of a Secret through r and trims their
// values. A missing Secret, a missing key or a value that is empty after
// trimming is a *SecretError.
func ReadSecret(ctx context.Context, r client.Reader, namespace, name string, keys ...string) (SecretValues, error) {
	s := &corev1.Secret{}
	if err := r.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, s); err != nil {
		if kerrors.IsNotFound(err) {
			return SecretValues{}, &SecretError{Namespace: namespace, Name: name, Problem: "not found"}
		}
		return SecretValues{}, errors.Wrapf(err, "cannot get Secret %s/%s", namespace, name)
	}
	v := SecretValues{Values: make(map[string]string, len(keys)), ResourceVersion: s.GetResourceVersion()}
	for _, k := range keys {
		raw, ok := s.Data[k]
		if !ok {
			return SecretValues{}, &SecretError{Namespace: namespace, Name: name, Key: k, Problem: "is missing"}
		}
		val := strings.TrimSpace(string(raw))
		if val == "" {
			return SecretValues{}, &SecretError{Namespace: namespace, Name: name, Key: k, Problem: "is empty"}
		}
		v.Values[k] = val
	}
	return v, nil
}
