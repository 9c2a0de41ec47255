package packages

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Credentials of the emulators. Every secret key contains sentinel, which
// must never appear in a log, an event or a status.
const (
	sentinel = "SENTINEL-install-secret"
	localAK  = "local-admin"
	localSK  = sentinel + "-local"
	remoteAK = "remote-admin"
	remoteSK = sentinel + "-remote"
)

// The example Tenant (examples/tenant) and what it composes.
const (
	tenantNamespace = "team-a"
	tenantName      = "tenant-a"
	tierBucket      = "tier-bucket"
	appBucket       = "app-data"
)

// A world is the RustFS the installed provider manages ("local"), the
// RustFS that holds the tier bucket ("remote"), and the example objects of
// a platform team and an application team.
type world struct {
	t      *testing.T
	c      *cluster
	local  *rustfstest.Server
	remote *rustfstest.Server
	claims *rustfstest.Server // the RustFS of the TenantClaim
}

// claimsConfig is the ClusterProviderConfig of the TenantClaim, for a RustFS
// of its own: the claim declares the same tier and bucket as the Tenant.
const claimsConfig = "claims"

// newWorld starts the emulators and creates the admin Secret and the
// default ClusterProviderConfig of examples/providerconfig, pointed at the
// local emulator with its keys and serving the Tenant's namespace only.
func newWorld(t *testing.T, c *cluster) *world {
	t.Helper()
	w := &world{t: t, c: c}
	w.local = rustfstest.NewServer(rustfstest.WithRootCredentials(localAK, localSK))
	t.Cleanup(w.local.Close)
	w.remote = rustfstest.NewServer(rustfstest.WithRootCredentials(remoteAK, remoteSK))
	t.Cleanup(w.remote.Close)
	w.remote.CreateBucket(tierBucket, false)
	secret := repoObjects(t, "examples/providerconfig/secret.yaml")[0]
	setKeys(secret, localAK, localSK)
	pc := repoObjects(t, "examples/providerconfig/clusterproviderconfig.yaml")[0]
	_ = unstructured.SetNestedField(pc.Object, w.local.URL(), "spec", "endpoint")
	// Serving only the Tenant's namespace, selected by label, needs the read
	// access to Namespaces that examples/install/rbac.yaml grants.
	_ = unstructured.SetNestedStringMap(pc.Object, map[string]string{"kubernetes.io/metadata.name": tenantNamespace},
		"spec", "namespaceSelector", "matchLabels")
	w.claims = rustfstest.NewServer(rustfstest.WithRootCredentials(localAK, localSK))
	t.Cleanup(w.claims.Close)
	claims := pc.DeepCopy()
	claims.SetName(claimsConfig)
	_ = unstructured.SetNestedField(claims.Object, w.claims.URL(), "spec", "endpoint")
	c.create(secret, pc, claims)
	return w
}

// withRemoteTiers points every tier of a Tenant or TenantClaim at the
// remote emulator.
func (w *world) withRemoteTiers(u *unstructured.Unstructured) *unstructured.Unstructured {
	tiers, _, _ := unstructured.NestedSlice(u.Object, "spec", "tiers")
	for _, tr := range tiers {
		tr.(map[string]any)["endpoint"] = w.remote.TierURL()
	}
	_ = unstructured.SetNestedSlice(u.Object, tiers, "spec", "tiers")
	return u
}

func setKeys(secret *unstructured.Unstructured, ak, sk string) {
	_ = unstructured.SetNestedStringMap(secret.Object, map[string]string{"accesskey": ak, "secretkey": sk}, "stringData")
}

// applyTenant creates the example Tenant, its namespace and its tier's
// credentials, the tier pointed at the remote emulator with its keys.
func (w *world) applyTenant() {
	w.t.Helper()
	for _, o := range repoObjects(w.t, "examples/tenant/secret.yaml") {
		if o.GetKind() == "Secret" {
			setKeys(o, remoteAK, remoteSK)
		}
		w.c.create(o)
	}
	w.c.create(w.withRemoteTiers(repoObjects(w.t, "examples/tenant/tenant.yaml")[0]))
}

// expectClaimReady creates the example TenantClaim for the claims RustFS
// and waits until Crossplane reports it Ready, with the Tier, Bucket and
// BucketLifecycle its XTenant composed Ready in the claim's namespace and
// the tier registered in that RustFS.
func (w *world) expectClaimReady() {
	w.t.Helper()
	claim := w.withRemoteTiers(repoObjects(w.t, "examples/tenant/tenantclaim.yaml")[0])
	_ = unstructured.SetNestedField(claim.Object, claimsConfig, "spec", "providerConfigRef", "name")
	w.c.create(claim)
	w.c.wait(func(g gomega.Gomega) {
		expectTrue(g, w.c.get(g, claim.GetAPIVersion(), claim.GetKind(), claim.GetNamespace(), claim.GetName()), "Ready", "Synced")
		n := 0
		for _, kind := range []string{"Tier", "Bucket", "BucketLifecycle"} {
			for _, u := range w.c.list(g, providerGroup+"/v1alpha1", kind, client.InNamespace(claim.GetNamespace()),
				client.MatchingLabels{"crossplane.io/claim-name": claim.GetName()}) {
				expectTrue(g, &u, "Ready", "Synced")
				n++
			}
		}
		g.Expect(n).To(gomega.Equal(3), "Tier, Bucket and BucketLifecycle composed for the claim")
	})
	if tier, ok := w.claims.Tier("COLD"); !ok || tier.Endpoint != w.remote.TierURL() {
		w.t.Errorf("the claim's RustFS: tier COLD found %t, endpoint %q", ok, tier.Endpoint)
	}
}

// expectTenantReady waits until Crossplane reports the Tenant Ready and
// Synced with a ready row per tier, bucket and access entry, every resource
// it composed Ready and Synced, and the access entry's key published by the
// provider, which runs with examples/install/rbac.yaml alone.
func (w *world) expectTenantReady() {
	w.t.Helper()
	w.c.wait(func(g gomega.Gomega) {
		tenant := w.c.get(g, "storage.rustfs.crossplane.io/v1alpha1", "Tenant", tenantNamespace, tenantName)
		expectTrue(g, tenant, "Ready", "Synced")
		for _, rows := range []string{"tiers", "buckets", "access"} {
			rs, _, _ := unstructured.NestedSlice(tenant.Object, "status", rows)
			g.Expect(rs).To(gomega.HaveLen(1), "status.%s", rows)
			g.Expect(rs[0].(map[string]any)["ready"]).To(gomega.BeTrue(), "status.%s[0]: %v", rows, rs[0])
		}
		n := 0
		for _, kind := range []string{"Tier", "Bucket", "BucketLifecycle", "BucketAccess"} {
			for _, u := range w.c.list(g, providerGroup+"/v1alpha1", kind, client.InNamespace(tenantNamespace),
				client.MatchingLabels{"crossplane.io/composite": tenantName}) {
				expectTrue(g, &u, "Ready", "Synced")
				n++
			}
		}
		g.Expect(n).To(gomega.Equal(4), "composed Tier, Bucket, BucketLifecycle and BucketAccess")
		key := &corev1.Secret{}
		g.Expect(w.c.kube.Get(w.c.ctx, client.ObjectKey{Namespace: tenantNamespace, Name: tenantName + "-access-app"}, key)).To(gomega.Succeed())
		g.Expect(key.Data).To(gomega.HaveKey("secretKey"), "the access entry's Secret holds the key")
	})
}

// expectRustFS checks what the Tenant left in the local RustFS: tier COLD
// on the remote's tier bucket with the keys of its Secret, bucket
// app-data, and its rule to-cold transitioning after 7 days to COLD.
func (w *world) expectRustFS() {
	w.t.Helper()
	tier, ok := w.local.Tier("COLD")
	got := fmt.Sprintf("%t %s %s %s %s %t", ok, tier.Endpoint, tier.Bucket, tier.Prefix, tier.AccessKey, tier.SecretKey == remoteSK)
	if want := fmt.Sprintf("true %s %s rustfs-a/ %s true", w.remote.TierURL(), tierBucket, remoteAK); got != want {
		w.t.Errorf("tier COLD (found, endpoint, bucket, prefix, access key, secret key from the Secret): want %q, got %q", want, got)
	}
	rc := testenv.RustFSClient(w.t, rustfs.Config{Endpoint: w.local.URL(), AccessKey: localAK, SecretKey: localSK})
	ctx := context.Background()
	if ok, err := rc.BucketExists(ctx, appBucket); !ok || err != nil {
		w.t.Errorf("bucket %s: exists %t, error %v", appBucket, ok, err)
	}
	lc, err := rc.GetLifecycle(ctx, appBucket)
	if err != nil {
		w.t.Fatalf("cannot get the lifecycle of %s: %v", appBucket, err)
	}
	var rules []string
	for _, r := range lc.Rules {
		for _, tr := range r.Transitions {
			rules = append(rules, fmt.Sprintf("%s %s days=%d -> %s", r.ID, r.Status, *tr.Days, tr.StorageClass))
		}
	}
	if want := "to-cold Enabled days=7 -> COLD"; strings.Join(rules, "; ") != want {
		w.t.Errorf("lifecycle of %s: want %q, got %q", appBucket, want, rules)
	}
}

// checkNoSecretLeaks fails the test if a secret key appears in the output
// of a process, an event, or the Tenant and what it composed.
func (w *world) checkNoSecretLeaks(procs ...*process) {
	w.t.Helper()
	for _, p := range procs {
		if strings.Contains(p.log.String(), sentinel) {
			w.t.Errorf("a secret value appears in the output of %s", p.name)
		}
	}
	g := gomega.NewWithT(w.t)
	for _, ns := range []string{tenantNamespace, crossplaneNamespace} {
		events := &corev1.EventList{}
		g.Expect(w.c.kube.List(w.c.ctx, events, client.InNamespace(ns))).To(gomega.Succeed())
		if b, _ := json.Marshal(events); strings.Contains(string(b), sentinel) {
			w.t.Errorf("a secret value appears in an event of namespace %s", ns)
		}
	}
	var objs []unstructured.Unstructured
	for _, kind := range []string{"Tier", "Bucket", "BucketLifecycle"} {
		objs = append(objs, w.c.list(g, providerGroup+"/v1alpha1", kind, client.InNamespace(tenantNamespace))...)
	}
	objs = append(objs, *w.c.get(g, "storage.rustfs.crossplane.io/v1alpha1", "Tenant", tenantNamespace, tenantName))
	if b, _ := json.Marshal(objs); strings.Contains(string(b), sentinel) {
		w.t.Error("a secret value appears in the Tenant or a resource it composed")
	}
}

// redact hides the sentinel in text a failing test prints.
func redact(s string) string { return strings.ReplaceAll(s, sentinel, "REDACTED") }
