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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

	// Endpoint is the normalised endpoint URL.
	Endpoint string

	// Revision changes whenever the ProviderConfig's spec or a Secret it
	// reads changes. A failure that only a configuration change can fix is
	// not retried until it does.
	Revision string

	// Target is the ProviderConfig the connection was made from.
	Target *Target
}

// A Target is what a managed resource's ProviderConfig or
// ClusterProviderConfig says, read without reading any Secret: which
// RustFS it points at and the tenancy settings that decide whether, and
// for which names, the resource may use it.
type Target struct {
	// Kind of the ProviderConfig: ProviderConfig or ClusterProviderConfig.
	Kind string

	// Config names the ProviderConfig for messages, for example
	// "ClusterProviderConfig default" or "ProviderConfig team-a/rustfs".
	Config string

	// NamespaceSelector of a ClusterProviderConfig; nil for a namespaced
	// ProviderConfig and when absent (every namespace).
	NamespaceSelector *metav1.LabelSelector

	// Tenancy are the name scope, shared tiers and adoption policy.
	Tenancy v1alpha1.TenancySettings

	src    source
	region string
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

// Resolve returns the connection mg's ProviderConfig describes: Target, then
// Connect.
func (r *Resolver) Resolve(ctx context.Context, mg resource.ModernManaged) (*Connection, error) {
	t, err := r.Target(ctx, mg)
	if err != nil {
		return nil, err
	}
	return r.Connect(ctx, mg, t)
}

// Target reads mg's ProviderConfig. It reads no Secret and records no
// usage. A namespaced ProviderConfig is looked up in mg's namespace only.
func (r *Resolver) Target(ctx context.Context, mg resource.ModernManaged) (*Target, error) {
	ref := mg.GetProviderConfigReference()
	if ref == nil {
		return nil, errors.New("spec.providerConfigRef is not set")
	}
	switch ref.Kind {
	case v1alpha1.ProviderConfigKind:
		return r.namespaced(ctx, mg.GetNamespace(), ref.Name)
	case v1alpha1.ClusterProviderConfigKind:
		return r.cluster(ctx, ref.Name)
	default:
		return nil, errors.Errorf("providerConfigRef kind %q is not supported: use ProviderConfig or ClusterProviderConfig", ref.Kind)
	}
}

// Connect records mg's use of t's ProviderConfig and reads its Secrets.
func (r *Resolver) Connect(ctx context.Context, mg resource.ModernManaged, t *Target) (*Connection, error) {
	if err := r.usage.Track(ctx, mg); err != nil {
		return nil, errors.Wrap(err, "cannot track ProviderConfig usage")
	}
	c, err := r.connect(ctx, t.src, t.region)
	if err != nil {
		return nil, err
	}
	c.Target = t
	return c, nil
}

func (r *Resolver) namespaced(ctx context.Context, ns, name string) (*Target, error) {
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
	return &Target{Kind: v1alpha1.ProviderConfigKind, Config: src.kind, Tenancy: pc.Spec.TenancySettings, src: src, region: pc.Spec.Region}, nil
}

func (r *Resolver) cluster(ctx context.Context, name string) (*Target, error) {
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
	return &Target{Kind: v1alpha1.ClusterProviderConfigKind, Config: src.kind, NamespaceSelector: pc.Spec.NamespaceSelector, Tenancy: pc.Spec.TenancySettings,
		src: src, region: pc.Spec.Region}, nil
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
// of the same RustFS compare equal. It never returns userinfo, a query or a
// fragment: the result is kept in status and quoted in messages, and an
// endpoint admitted before the admission rules refused userinfo may hold a
// password.
func NormalizeEndpoint(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" {
		return strings.TrimRight(strings.ToLower(redact(endpoint)), "/")
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

// redact returns endpoint text that is not a URL without anything that
// could be userinfo (everything up to the last "@"), a query or a fragment.
func redact(endpoint string) string {
	s := strings.TrimSpace(endpoint)
	scheme := ""
	if i := strings.Index(s, "://"); i >= 0 {
		scheme, s = s[:i+3], s[i+3:]
	}
	if i := strings.LastIndex(s, "@"); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	return scheme + s
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
