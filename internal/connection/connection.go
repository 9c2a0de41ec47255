// Package connection resolves a managed resource's ProviderConfig or
// ClusterProviderConfig into a RustFS client configuration. It is the one
// place that reads provider credentials.
package connection

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// A Connection is how a managed resource reaches RustFS.
type Connection struct {
	// Config for the RustFS client.
	Config rustfs.Config

	// Endpoint is the normalised endpoint URL. Resources with the same
	// Endpoint manage the same RustFS.
	Endpoint string

	// Revision changes whenever the ProviderConfig's spec or a Secret it
	// reads changes. A failure that only a configuration change can fix is
	// not retried until it does.
	Revision string
}

// A Resolver resolves providerConfigRefs.
type Resolver struct {
	kube    client.Reader
	secrets client.Reader
	usage   resource.ModernTracker
}

// NewResolver returns a Resolver that reads ProviderConfigs through kube and
// Secrets through secrets (the manager's API reader, so that Secret data is
// never cached), and records usage with usage.
func NewResolver(kube, secrets client.Reader, usage resource.ModernTracker) *Resolver {
	return &Resolver{kube: kube, secrets: secrets, usage: usage}
}

// Resolve tracks mg's use of its ProviderConfig and returns the connection
// that ProviderConfig describes. A namespaced ProviderConfig is looked up,
// and reads its Secrets, in mg's namespace only.
func (r *Resolver) Resolve(ctx context.Context, mg resource.ModernManaged) (*Connection, error) {
	if err := r.usage.Track(ctx, mg); err != nil {
		return nil, errors.Wrap(err, "cannot track ProviderConfig usage")
	}
	ref := mg.GetProviderConfigReference()
	switch ref.Kind {
	case v1alpha1.ProviderConfigKind:
		return r.namespaced(ctx, mg.GetNamespace(), ref.Name)
	case v1alpha1.ClusterProviderConfigKind:
		return r.cluster(ctx, ref.Name)
	default:
		return nil, errors.Errorf("providerConfigRef kind %q is not supported: use ProviderConfig or ClusterProviderConfig", ref.Kind)
	}
}

func (r *Resolver) namespaced(ctx context.Context, ns, name string) (*Connection, error) {
	pc := &v1alpha1.ProviderConfig{}
	if err := r.kube.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, pc); err != nil {
		return nil, errors.Wrapf(err, "cannot get ProviderConfig %s/%s", ns, name)
	}
	c := pc.Spec.Credentials
	src := source{
		kind: "ProviderConfig " + ns + "/" + name, generation: pc.GetGeneration(), endpoint: pc.Spec.Endpoint,
		secretNS: ns, secretName: c.SecretRef.Name, keys: c.CredentialKeys,
	}
	if t := pc.Spec.TLS; t != nil {
		src.insecure = t.InsecureSkipVerify
		if t.CABundleSecretRef != nil {
			src.ca = &caRef{ns: ns, name: t.CABundleSecretRef.Name, key: t.CABundleSecretRef.Key}
		}
	}
	return r.connect(ctx, src, pc.Spec.Region)
}

func (r *Resolver) cluster(ctx context.Context, name string) (*Connection, error) {
	pc := &v1alpha1.ClusterProviderConfig{}
	if err := r.kube.Get(ctx, types.NamespacedName{Name: name}, pc); err != nil {
		return nil, errors.Wrapf(err, "cannot get ClusterProviderConfig %s", name)
	}
	c := pc.Spec.Credentials
	src := source{
		kind: "ClusterProviderConfig " + name, generation: pc.GetGeneration(), endpoint: pc.Spec.Endpoint,
		secretNS: c.SecretRef.Namespace, secretName: c.SecretRef.Name, keys: c.CredentialKeys,
	}
	if t := pc.Spec.TLS; t != nil {
		src.insecure = t.InsecureSkipVerify
		if t.CABundleSecretRef != nil {
			src.ca = &caRef{ns: t.CABundleSecretRef.Namespace, name: t.CABundleSecretRef.Name, key: t.CABundleSecretRef.Key}
		}
	}
	return r.connect(ctx, src, pc.Spec.Region)
}

// A source is what either ProviderConfig kind says about the connection.
type source struct {
	kind                 string
	generation           int64
	endpoint             string
	secretNS, secretName string
	keys                 v1alpha1.CredentialKeys
	insecure             bool
	ca                   *caRef
}

type caRef struct{ ns, name, key string }

func (r *Resolver) connect(ctx context.Context, s source, region string) (*Connection, error) {
	ak, sk := keyOr(s.keys.AccessKeyKey, v1alpha1.DefaultAccessKeyKey), keyOr(s.keys.SecretKeyKey, v1alpha1.DefaultSecretKeyKey)
	creds, err := ReadSecret(ctx, r.secrets, s.secretNS, s.secretName, ak, sk)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read the credentials of %s", s.kind)
	}
	cfg := rustfs.Config{
		Endpoint: s.endpoint, Region: region, AccessKey: creds.Values[ak], SecretKey: creds.Values[sk],
		InsecureSkipVerify: s.insecure,
	}
	revision := []string{s.kind, fmt.Sprint(s.generation), creds.ResourceVersion}
	if s.ca != nil {
		ca, err := ReadSecret(ctx, r.secrets, s.ca.ns, s.ca.name, s.ca.key)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read the CA bundle of %s", s.kind)
		}
		cfg.CABundle = []byte(ca.Values[s.ca.key])
		revision = append(revision, ca.ResourceVersion)
	}
	return &Connection{Config: cfg, Endpoint: NormalizeEndpoint(s.endpoint), Revision: digest(revision...)}, nil
}

// NormalizeEndpoint returns endpoint with a lowercase scheme and host, the
// scheme's default port removed and no trailing slash, so that two spellings
// of the same RustFS compare equal.
func NormalizeEndpoint(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" {
		return strings.TrimRight(strings.ToLower(strings.TrimSpace(endpoint)), "/")
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/")
}

func keyOr(key, def string) string {
	if key == "" {
		return def
	}
	return key
}

func digest(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:8])
}

// Endpoint returns the normalised endpoint of mg's ProviderConfig without
// reading any Secret or recording usage. Two resources with the same
// Endpoint manage the same RustFS.
func (r *Resolver) Endpoint(ctx context.Context, mg resource.ModernManaged) (string, error) {
	ref := mg.GetProviderConfigReference()
	if ref == nil {
		return "", errors.New("no providerConfigRef")
	}
	switch ref.Kind {
	case v1alpha1.ProviderConfigKind:
		pc := &v1alpha1.ProviderConfig{}
		if err := r.kube.Get(ctx, types.NamespacedName{Namespace: mg.GetNamespace(), Name: ref.Name}, pc); err != nil {
			return "", errors.Wrapf(err, "cannot get ProviderConfig %s/%s", mg.GetNamespace(), ref.Name)
		}
		return NormalizeEndpoint(pc.Spec.Endpoint), nil
	case v1alpha1.ClusterProviderConfigKind:
		pc := &v1alpha1.ClusterProviderConfig{}
		if err := r.kube.Get(ctx, types.NamespacedName{Name: ref.Name}, pc); err != nil {
			return "", errors.Wrapf(err, "cannot get ClusterProviderConfig %s", ref.Name)
		}
		return NormalizeEndpoint(pc.Spec.Endpoint), nil
	default:
		return "", errors.Errorf("providerConfigRef kind %q is not supported", ref.Kind)
	}
}
