package main

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// applyOrder is the order kinds are applied in; other kinds are skipped.
var applyOrder = []string{
	"Secret", v1alpha1.ClusterProviderConfigKind, v1alpha1.ProviderConfigKind,
	v1alpha1.TierKind, v1alpha1.BucketKind, v1alpha1.BucketLifecycleKind, v1alpha1.BucketAccessKind,
}

// A plan is what the demo applies: the examples with the demo's endpoints
// and credentials, the Secrets they need, the namespaces they live in, and
// notes about what was changed or skipped.
type plan struct {
	namespaces []string
	objects    []*unstructured.Unstructured
	notes      []string
}

// A secretUse is a Secret an example reads credentials from.
type secretUse struct {
	ns, name, accessKeyKey, secretKeyKey string
	accessKey, secretKey                 string
}

// makePlan rewrites docs for t: ProviderConfigs point at t's endpoint,
// Tiers at t's tier endpoint and bucket (as type RustFS: the demo's one
// remote is a RustFS), and every Secret they read holds t's
// credentials; missing Secrets are added.
func makePlan(docs []*unstructured.Unstructured, t target) plan {
	p := plan{}
	byKind := map[string][]*unstructured.Unstructured{}
	for _, u := range docs {
		if !known(u) {
			p.notes = append(p.notes, fmt.Sprintf("skipped %s %s: not a kind the demo applies", u.GetKind(), u.GetName()))
			continue
		}
		if u.GetKind() != v1alpha1.ClusterProviderConfigKind && u.GetNamespace() == "" {
			u.SetNamespace("default")
		}
		byKind[u.GetKind()] = append(byKind[u.GetKind()], u)
	}
	var uses []secretUse
	for _, u := range append(byKind[v1alpha1.ClusterProviderConfigKind], byKind[v1alpha1.ProviderConfigKind]...) {
		uses = append(uses, pointAtRustFS(u, t))
	}
	for _, u := range byKind[v1alpha1.TierKind] {
		use, note := pointAtRemote(u, t)
		uses = append(uses, use)
		if note != "" {
			p.notes = append(p.notes, note)
		}
	}
	byKind["Secret"] = fillSecrets(byKind["Secret"], uses)
	for _, k := range applyOrder {
		p.objects = append(p.objects, byKind[k]...)
	}
	p.namespaces = namespaces(p.objects)
	return p
}

func known(u *unstructured.Unstructured) bool {
	gv := u.GroupVersionKind()
	if gv.Kind == "Secret" {
		return gv.Group == "" && gv.Version == "v1"
	}
	if gv.Group != v1alpha1.Group {
		return false
	}
	for _, k := range applyOrder {
		if k == gv.Kind {
			return true
		}
	}
	return false
}

// pointAtRustFS sets a (Cluster)ProviderConfig's endpoint and returns the
// Secret it reads.
func pointAtRustFS(u *unstructured.Unstructured, t target) secretUse {
	_ = unstructured.SetNestedField(u.Object, t.endpoint, "spec", "endpoint")
	use := secretUse{ns: u.GetNamespace(), accessKey: t.accessKey, secretKey: t.secretKey}
	use.name, _, _ = unstructured.NestedString(u.Object, "spec", "credentials", "secretRef", "name")
	if ns, _, _ := unstructured.NestedString(u.Object, "spec", "credentials", "secretRef", "namespace"); ns != "" {
		use.ns = ns
	}
	use.accessKeyKey, use.secretKeyKey = keys(u, "spec", "credentials")
	return use
}

// pointAtRemote points a Tier at the remote storage and returns the Secret
// it reads and a note if its type had to change. Every Tier goes to the
// one remote bucket, under its own prefix (remotePrefix).
func pointAtRemote(u *unstructured.Unstructured, t target) (secretUse, string) {
	fp := []string{"spec", "forProvider"}
	bucket, _, _ := unstructured.NestedString(u.Object, append(fp, "bucket")...)
	prefix, _, _ := unstructured.NestedString(u.Object, append(fp, "prefix")...)
	_ = unstructured.SetNestedField(u.Object, t.tierEndpoint, append(fp, "endpoint")...)
	_ = unstructured.SetNestedField(u.Object, t.tierBucket, append(fp, "bucket")...)
	_ = unstructured.SetNestedField(u.Object, remotePrefix(u.GetNamespace(), u.GetName(), bucket, prefix), append(fp, "prefix")...)
	note := ""
	if typ, _, _ := unstructured.NestedString(u.Object, append(fp, "type")...); typ != string(v1alpha1.TierTypeRustFS) {
		_ = unstructured.SetNestedField(u.Object, string(v1alpha1.TierTypeRustFS), append(fp, "type")...)
		unstructured.RemoveNestedField(u.Object, append(fp, "storageClass")...)
		unstructured.RemoveNestedField(u.Object, append(fp, "credentialsSecretRef", "authorizedUserKey")...)
		note = fmt.Sprintf("Tier %s/%s: type %s applied as RustFS (the demo's one remote is a RustFS)",
			u.GetNamespace(), u.GetName(), typ)
	}
	use := secretUse{ns: u.GetNamespace(), accessKey: t.tierAccessKey, secretKey: t.tierSecretKey}
	use.name, _, _ = unstructured.NestedString(u.Object, append(fp, "credentialsSecretRef", "name")...)
	use.accessKeyKey, use.secretKeyKey = keys(u, append(fp, "credentialsSecretRef")...)
	return use, note
}

// remotePrefix is the prefix a Tier gets on the demo's one remote bucket:
// its namespace, name, bucket and prefix. Namespaces and names hold no '/',
// and the API server keeps each namespace/name unique, so two Tiers never
// get one prefix, nor one inside the other: RustFS refuses to add a tier
// whose prefix holds objects, and a tier's add writes a probe object under
// its prefix.
func remotePrefix(ns, name, bucket, prefix string) string {
	p := ns + "/" + name + "/" + bucket + "/"
	if prefix = strings.Trim(prefix, "/"); prefix != "" {
		p += prefix + "/"
	}
	return p
}

// keys returns the accessKeyKey and secretKeyKey under path, or defaults.
func keys(u *unstructured.Unstructured, path ...string) (string, string) {
	ak, _, _ := unstructured.NestedString(u.Object, append(path, "accessKeyKey")...)
	sk, _, _ := unstructured.NestedString(u.Object, append(path, "secretKeyKey")...)
	if ak == "" {
		ak = v1alpha1.DefaultAccessKeyKey
	}
	if sk == "" {
		sk = v1alpha1.DefaultSecretKeyKey
	}
	return ak, sk
}

// fillSecrets puts each use's credentials into its Secret, adding the
// Secrets that no example defines.
func fillSecrets(secrets []*unstructured.Unstructured, uses []secretUse) []*unstructured.Unstructured {
	byKey := map[string]*unstructured.Unstructured{}
	for _, s := range secrets {
		byKey[s.GetNamespace()+"/"+s.GetName()] = s
	}
	for _, use := range uses {
		if use.name == "" {
			continue
		}
		s, ok := byKey[use.ns+"/"+use.name]
		if !ok {
			s = &unstructured.Unstructured{}
			s.SetAPIVersion("v1")
			s.SetKind("Secret")
			s.SetNamespace(use.ns)
			s.SetName(use.name)
			byKey[use.ns+"/"+use.name] = s
			secrets = append(secrets, s)
		}
		unstructured.RemoveNestedField(s.Object, "data")
		_ = unstructured.SetNestedField(s.Object, use.accessKey, "stringData", use.accessKeyKey)
		_ = unstructured.SetNestedField(s.Object, use.secretKey, "stringData", use.secretKeyKey)
		_ = unstructured.SetNestedField(s.Object, string(corev1.SecretTypeOpaque), "type")
	}
	return secrets
}

// namespaces returns the namespaces of objs, sorted.
func namespaces(objs []*unstructured.Unstructured) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range objs {
		if ns := o.GetNamespace(); ns != "" && !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	sort.Strings(out)
	return out
}
