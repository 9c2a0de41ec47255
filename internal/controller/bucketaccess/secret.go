package bucketaccess

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// keyMemory is the annotation that records which secret key the connection
// Secret should hold: a digest of it and the rotation it was made for. It
// is written before RustFS is asked to take a new secret key, so a write
// whose answer is lost, or a Secret that was never published, shows as a
// Secret that does not hold the key, which Observe repairs with a new one.
// Like every annotation of the provider it grants nothing (package custody).
const keyMemory = memo.Prefix + "key"

// A keyRecord is the value of keyMemory. Digest is not the secret key: it
// is a truncated SHA-256 over a fixed domain, the access key and the 240
// random bits of the secret key, which only tells whether a Secret holds
// the key the provider last chose.
type keyRecord struct {
	Digest   string `json:"digest"`
	Rotation int64  `json:"rotation"`
}

const digestDomain = "provider-rustfs/bucketaccess-secret-key/v1"

// digest returns the keyRecord digest of a secret key.
func digest(accessKey, secretKey string) string {
	h := sha256.Sum256([]byte(digestDomain + "\x00" + accessKey + "\x00" + secretKey))
	return hex.EncodeToString(h[:16])
}

// recall returns the key record of cr; the zero record when it has none.
func recall(cr *v1alpha1.BucketAccess) keyRecord {
	var r keyRecord
	memo.Get(cr, keyMemory, &r)
	return r
}

// A published is what the connection Secret holds now.
type published struct {
	exists bool
	data   map[string][]byte
}

// holds reports whether the Secret holds the key the provider last chose
// for accessKey, according to r.
func (p published) holds(accessKey string, r keyRecord) bool {
	sk := string(p.data[v1alpha1.ConnectionSecretKey])
	return p.exists && r.Digest != "" && string(p.data[v1alpha1.ConnectionAccessKey]) == accessKey && sk != "" &&
		digest(accessKey, sk) == r.Digest
}

// readSecret reads the connection Secret past the cache. A Secret the
// managed reconciler may not write, because something else controls it,
// is a refusal: no key is created or rotated that could not be published.
// Errors never show the Secret's data.
func (e *external) readSecret(ctx context.Context, cr *v1alpha1.BucketAccess) (published, error) {
	name := cr.Spec.WriteConnectionSecretToReference.Name
	s := &corev1.Secret{}
	err := e.uncached.Get(ctx, types.NamespacedName{Namespace: cr.GetNamespace(), Name: name}, s)
	switch {
	case kerrors.IsNotFound(err):
		return published{}, nil
	case err != nil:
		return published{}, errors.Wrapf(err, "cannot read the connection Secret %s/%s", cr.GetNamespace(), name)
	case !writable(s, cr.GetUID()):
		return published{}, &custody.Refusal{Reason: v1alpha1.ReasonConnectionSecretConflict, Message: fmt.Sprintf("Secret %s "+
			"exists and does not belong to this BucketAccess, so the key would have nowhere to go: no key is created or "+
			"rotated. Set spec.writeConnectionSecretToRef.name to a Secret name that is free.", name)}
	}
	return published{exists: true, data: s.Data}, nil
}

// writable reports whether crossplane-runtime's connection publisher may
// write s for the resource with uid: s is controlled by it, or controlled
// by nothing and of the connection Secret type.
func writable(s *corev1.Secret, uid types.UID) bool {
	c := metav1.GetControllerOf(s)
	if c == nil {
		return s.Type == resource.SecretTypeConnection
	}
	return c.UID == uid
}

// details are the connection details of the key: the endpoint and region of
// the ProviderConfig, the keys, and the granted buckets, comma separated.
// An empty secretKey is left out.
func (e *external) details(ak, sk string, buckets []string) managed.ConnectionDetails {
	region := e.conn.Config.Region
	if region == "" {
		region = rustfs.DefaultRegion
	}
	d := managed.ConnectionDetails{
		v1alpha1.ConnectionEndpoint:  []byte(e.conn.Config.Endpoint),
		v1alpha1.ConnectionRegion:    []byte(region),
		v1alpha1.ConnectionAccessKey: []byte(ak),
		v1alpha1.ConnectionBuckets:   []byte(strings.Join(buckets, ",")),
	}
	if sk != "" {
		d[v1alpha1.ConnectionSecretKey] = []byte(sk)
	}
	return d
}

// scrub returns err with every occurrence of the secret keys replaced, for
// an error that reaches conditions, events and logs: a server or a proxy
// may echo the request that carried a new secret key. An error without
// them is returned as it is.
func scrub(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "REDACTED")
		}
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}
