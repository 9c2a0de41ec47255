package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// tenantConfig is the ClusterProviderConfig of the Tenant's own RustFS:
// the Tenant declares tier COLD and bucket app-data, as the managed
// examples do, so it gets a RustFS emulator of its own.
const tenantConfig = "demo-tenant"

// A tenantResult is the Tenant part of the table and of the summary.
type tenantResult struct {
	rows []row
	line string // the summary's sentence about the Tenant
	ok   bool   // false: the Tenant ran but is not Ready
}

// runTenant shows the Tenant: it starts Crossplane core and the function,
// installs the Tenant XRDs and Compositions, applies examples/tenant and
// waits until the Tenant is Ready. If core or the function cannot run, it
// says why in one line and the demo goes on without the Tenant.
func (d *demo) runTenant(ctx context.Context, c client.Client) tenantResult {
	if d.skipTenant != "" {
		return tenantResult{line: "Tenant skipped: " + d.skipTenant, ok: true}
	}
	start := time.Now()
	t, err := d.startTenantSide(ctx, c)
	if err != nil {
		return tenantResult{line: "Tenant skipped: " + oneLine(err), ok: true}
	}
	deadline := time.Now().Add(d.tenantTimeout)
	u, err := d.applyTenant(ctx, c, t, deadline)
	if err != nil {
		return tenantResult{line: "Tenant not applied: " + oneLine(err)}
	}
	rs, ready := d.waitTenant(ctx, c, u, deadline)
	took := time.Since(start).Round(100 * time.Millisecond)
	if !ready {
		return tenantResult{rows: rs, line: fmt.Sprintf("Tenant %s/%s not Ready after %s", u.GetNamespace(), u.GetName(), took)}
	}
	return tenantResult{rows: rs, ok: true,
		line: fmt.Sprintf("Tenant %s/%s Ready with %d composed resources (+%s for core, function and Tenant)", u.GetNamespace(), u.GetName(), composedCount(rs), took)}
}

// startTenantSide starts the Tenant's RustFS, Crossplane core and the
// function.
func (d *demo) startTenantSide(ctx context.Context, c client.Client) (target, error) {
	t, err := d.emulate(ctx, "tenant-emulator")
	if err != nil {
		return target{}, err
	}
	pki, err := testenv.NewPKI()
	if err != nil {
		return target{}, err
	}
	if err := d.startCrossplane(ctx, c, pki); err != nil {
		return target{}, err
	}
	return t, d.serveFunction(ctx, c, pki)
}

func oneLine(err error) string { return shorten(err.Error(), 200) }

// applyTenant installs the Tenant XRDs and Compositions of
// package/configuration, waits until core serves the Tenant, and applies
// examples/tenant pointed at t: its own ClusterProviderConfig, its tier on
// t's remote with t's keys. It returns the Tenant.
func (d *demo) applyTenant(ctx context.Context, c client.Client, t target, deadline time.Time) (*unstructured.Unstructured, error) {
	var api []*unstructured.Unstructured
	for _, f := range []string{"xrd-tenant.yaml", "xrd-xtenant.yaml", "composition-tenant.yaml", "composition-xtenant.yaml"} {
		docs, err := decodeFile(filepath.Join(d.root, "package", "configuration", f))
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read package/configuration/%s", f)
		}
		api = append(api, docs...)
	}
	objs, tenant, err := d.tenantObjects(t)
	if err != nil {
		return nil, err
	}
	for _, o := range api {
		if err := create(ctx, c, o); err != nil {
			return nil, err
		}
	}
	// Core creates the Tenant's CRD once the XRD is established; until
	// then, and until the client discovers it, the API server or the client
	// does not know the kind.
	for _, o := range objs {
		for {
			err := create(ctx, c, o)
			if err == nil {
				break
			}
			if !unknownKind(err) || time.Now().After(deadline) || ctx.Err() != nil {
				return nil, err
			}
			time.Sleep(time.Second)
		}
	}
	fmt.Fprintf(d.out, "applied the Tenant XRDs and Compositions of package/configuration and %s/tenant/{secret,tenant}.yaml\n", d.examples)
	return tenant, nil
}

// unknownKind reports whether err says the kind is not served yet.
func unknownKind(err error) bool {
	return meta.IsNoMatchError(err) || apierrors.IsNotFound(err)
}

// tenantObjects are the objects that examples/tenant's secret.yaml and
// tenant.yaml declare, pointed at t, after a ClusterProviderConfig for t
// and its Secret.
func (d *demo) tenantObjects(t target) ([]client.Object, *unstructured.Unstructured, error) {
	var docs []*unstructured.Unstructured
	for _, f := range []string{"secret.yaml", "tenant.yaml"} {
		ds, err := decodeFile(filepath.Join(d.examples, "tenant", f))
		if err != nil {
			return nil, nil, errors.Wrapf(err, "cannot read examples/tenant/%s", f)
		}
		docs = append(docs, ds...)
	}
	pc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": v1alpha1.SchemeGroupVersion.String(), "kind": v1alpha1.ClusterProviderConfigKind,
		"metadata": map[string]any{"name": tenantConfig},
		"spec": map[string]any{"credentials": map[string]any{"source": "Secret",
			"secretRef": map[string]any{"namespace": testenv.CrossplaneNamespace, "name": tenantConfig}}},
	}}
	uses := []secretUse{pointAtRustFS(pc, t)}
	var secrets []*unstructured.Unstructured
	objs := []client.Object{}
	var tenant *unstructured.Unstructured
	for _, u := range docs {
		switch u.GetKind() {
		case "Secret":
			secrets = append(secrets, u)
		case "Tenant":
			tenant = u
			_ = unstructured.SetNestedField(u.Object, tenantConfig, "spec", "providerConfigRef", "name")
			uses = append(uses, pointTenantTiers(u, t)...)
		default:
			objs = append(objs, u)
		}
	}
	if tenant == nil {
		return nil, nil, errors.Errorf("no Tenant in %s/tenant/tenant.yaml", d.examples)
	}
	for _, s := range fillSecrets(secrets, uses) {
		objs = append(objs, s)
	}
	return append(objs, pc, tenant), tenant, nil
}

// pointTenantTiers points every tier of a Tenant at t's remote bucket,
// under the tier's own prefix, and returns the Secrets they read.
func pointTenantTiers(u *unstructured.Unstructured, t target) []secretUse {
	tiers, _, _ := unstructured.NestedSlice(u.Object, "spec", "tiers")
	var uses []secretUse
	for _, o := range tiers {
		tr, ok := o.(map[string]any)
		if !ok {
			continue
		}
		name, _ := tr["name"].(string)
		bucket, _ := tr["bucket"].(string)
		prefix, _ := tr["prefix"].(string)
		tr["type"], tr["endpoint"], tr["bucket"] = string(v1alpha1.TierTypeRustFS), t.tierEndpoint, t.tierBucket
		tr["prefix"] = remotePrefix(u.GetNamespace(), u.GetName()+"-"+name, bucket, prefix)
		use := secretUse{ns: u.GetNamespace(), accessKey: t.tierAccessKey, secretKey: t.tierSecretKey,
			accessKeyKey: v1alpha1.DefaultAccessKeyKey, secretKeyKey: v1alpha1.DefaultSecretKeyKey}
		if ref, ok := tr["credsSecret"].(map[string]any); ok {
			use.name, _ = ref["name"].(string)
		}
		uses = append(uses, use)
	}
	_ = unstructured.SetNestedSlice(u.Object, tiers, "spec", "tiers")
	return uses
}

// waitTenant polls until the Tenant is Ready and Synced with every status
// row and composed resource Ready, the deadline passes or ctx ends. It
// returns the Tenant's rows.
func (d *demo) waitTenant(ctx context.Context, c client.Client, tenant *unstructured.Unstructured, deadline time.Time) ([]row, bool) {
	return d.poll(ctx, deadline, "Tenant rows ", func() ([]row, bool) {
		return tenantRows(ctx, c, tenant.GetNamespace(), tenant.GetName())
	})
}

// tenantRows are the Tenant's row, a row per resource it composed and a
// row per status row, and whether all are Ready.
func tenantRows(ctx context.Context, c client.Client, ns, name string) ([]row, bool) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(testenv.TenantGroup + "/" + testenv.TenantVersion)
	u.SetKind("Tenant")
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, u); err != nil {
		return []row{{kind: "Tenant", name: ns + "/" + name, ready: "-", synced: "-", conflict: "-", why: "cannot read it: " + oneLine(err)}}, false
	}
	composed, _ := rows(ctx, c, client.InNamespace(ns), client.MatchingLabels{"crossplane.io/composite": name})
	srows := statusRows(u)
	ready, synced := condition(u, xpv2.TypeReady), condition(u, xpv2.TypeSynced)
	top := row{kind: "Tenant", name: ns + "/" + name, ready: status(ready), synced: status(synced), conflict: "-",
		why: shorten(explain(ready, synced, nil, fmt.Sprintf("composed %d resources; %d status rows", len(composed), len(srows))), 110)}
	out := append(append([]row{top}, composed...), srows...)
	return out, readyCount(out) == len(out) && synced.Status == corev1.ConditionTrue && len(composed) > 0
}

// statusRows turns the Tenant's status.tiers, status.buckets and
// status.access into rows.
func statusRows(u *unstructured.Unstructured) []row {
	var out []row
	for _, s := range []struct{ field, kind string }{{"tiers", "TenantTier"}, {"buckets", "TenantBucket"}, {"access", "TenantAccess"}} {
		items, _, _ := unstructured.NestedSlice(u.Object, "status", s.field)
		for _, o := range items {
			m, _ := o.(map[string]any)
			n, _ := m["name"].(string)
			r := row{kind: s.kind, name: u.GetNamespace() + "/" + u.GetName() + "/" + n, ready: boolStatus(m["ready"]), synced: boolStatus(m["synced"]), conflict: "-"}
			r.why = "status." + s.field + " row " + n
			if sec, _ := m["secretName"].(string); sec != "" {
				r.why += ": key in Secret " + sec
			}
			if reason, _ := m["reason"].(string); r.ready != "True" && reason != "" {
				msg, _ := m["message"].(string)
				r.why = reason + ": " + msg
			}
			r.why = shorten(r.why, 110)
			out = append(out, r)
		}
	}
	return out
}

// condition is the condition typ of u's status.
func condition(u *unstructured.Unstructured, typ xpv2.ConditionType) xpv2.Condition {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, o := range conds {
		m, _ := o.(map[string]any)
		if m["type"] != string(typ) {
			continue
		}
		s, _ := m["status"].(string)
		r, _ := m["reason"].(string)
		msg, _ := m["message"].(string)
		return xpv2.Condition{Type: typ, Status: corev1.ConditionStatus(s), Reason: xpv2.ConditionReason(r), Message: msg}
	}
	return xpv2.Condition{}
}

func boolStatus(v any) string {
	b, ok := v.(bool)
	switch {
	case !ok:
		return "-"
	case b:
		return "True"
	}
	return "False"
}

// composedCount is the number of managed-resource rows in rs.
func composedCount(rs []row) int {
	n := 0
	for _, r := range rs {
		switch r.kind {
		case v1alpha1.TierKind, v1alpha1.BucketKind, v1alpha1.BucketLifecycleKind, v1alpha1.BucketAccessKind:
			n++
		}
	}
	return n
}
