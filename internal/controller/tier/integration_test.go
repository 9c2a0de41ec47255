package tier

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/jsonpath"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

var (
	readyAndFree = map[xpv2.ConditionType]string{xpv2.TypeReady: "True/Available", v1alpha1.TypeTierConflict: "False/NoConflict", xpv2.TypeSynced: "True/ReconcileSuccess"}
	drifted      = map[xpv2.ConditionType]string{xpv2.TypeReady: "False/TierConflict", v1alpha1.TypeTierConflict: "True/ImmutableFieldDrift", xpv2.TypeSynced: "False/ReconcileError"}
)

func TestTierLifecycleThroughTheManagedReconciler(t *testing.T) {
	it := newITest(t, "lifecycle", nil)
	cr := it.tier("cold")
	it.create(cr)

	got := it.waitFor(cr, 10*time.Second, readyAndFree)
	live, _ := it.local.Tier("COLD")
	want := rustfstest.TierRecord{Type: "rustfs", Name: "COLD", Endpoint: it.remote.TierURL(), AccessKey: keyLabel(tierAK),
		SecretKey: keyLabel(tierSK), Bucket: remoteBkt, Prefix: tierPrefix, Region: "us-east-1"}
	if diff := cmp.Diff(want, printable(live)); diff != "" {
		t.Fatalf("RustFS tier COLD: -want +got:\n%s", diff)
	}
	if got.Spec.ManagementPolicies == nil || meta.GetExternalName(got) != "COLD" {
		t.Errorf("policies %v, external name %q; want the Retain-only default and COLD", got.Spec.ManagementPolicies, meta.GetExternalName(got))
	}
	if c := got.Status.AtProvider.Credentials; c == nil || c.SecretName != secretName || got.Status.AtProvider.Adopted {
		t.Errorf("status.atProvider: %+v; want the applied Secret recorded and adopted false", got.Status.AtProvider)
	}
	it.expectColumns(got, map[string]string{"READY": "True", "SYNCED": "True", "CONFLICT": "False", "TIER": "COLD", "TYPE": "RustFS"})

	// A prefix RustFS cannot change: a conflict, and no write.
	writes := it.local.Writes()
	got = it.waitFor(it.setPrefix(got, "elsewhere/"), 10*time.Second, drifted)
	it.expectColumns(got, map[string]string{"READY": "False", "CONFLICT": "True"})
	if msg := got.GetCondition(v1alpha1.TypeTierConflict).Message; !strings.Contains(msg, `spec.forProvider.prefix is "elsewhere/" but RustFS has "tenant-a/"`) {
		t.Errorf("conflict message: %s", msg)
	}

	// Corrected: the conflict clears on the next reconcile.
	got = it.waitFor(it.setPrefix(got, tierPrefix), 10*time.Second, readyAndFree)
	it.expectColumns(got, map[string]string{"CONFLICT": "False"})
	if w := it.local.Writes(); w != writes {
		t.Errorf("the conflict and its correction wrote %d times, want 0", w-writes)
	}

	it.deleteAndExpectRetained(got)
	it.checkNoSecrets(got)
}

// setPrefix updates the Tier's spec.forProvider.prefix.
func (it *itest) setPrefix(cr *v1alpha1.Tier, prefix string) *v1alpha1.Tier {
	it.t.Helper()
	cr.Spec.ForProvider.Prefix = prefix
	if err := it.kube.Update(ctx(it.t), cr); err != nil {
		it.t.Fatal(err)
	}
	return cr
}

// deleteAndExpectRetained deletes the Tier and checks that it goes away
// while the RustFS tier stays, with no remove request.
func (it *itest) deleteAndExpectRetained(cr *v1alpha1.Tier) {
	it.t.Helper()
	if err := it.kube.Delete(ctx(it.t), cr); err != nil {
		it.t.Fatal(err)
	}
	it.g.Eventually(func() bool {
		return kerrors.IsNotFound(it.kube.Get(ctx(it.t), client.ObjectKeyFromObject(cr), &v1alpha1.Tier{}))
	}).WithTimeout(10 * time.Second).Should(gomega.BeTrue())
	if _, ok := it.local.Tier(cr.Spec.ForProvider.Name); !ok || it.local.Count(rustfstest.RouteRemoveTier) != 0 {
		it.t.Errorf("after deleting the Tier: tier present %t, %d removes; want the tier kept and no remove",
			ok, it.local.Count(rustfstest.RouteRemoveTier))
	}
}

func TestSecretUpdateEditsCredentialsWithinFiveSecondsWithHourlyPoll(t *testing.T) {
	it := newITest(t, "rotation", nil)
	cr := it.tier("cold")
	it.create(cr)
	it.waitFor(cr, 10*time.Second, readyAndFree)
	edits := it.local.Count(rustfstest.RouteEditTier)

	s := &corev1.Secret{}
	if err := it.kube.Get(ctx(t), client.ObjectKey{Namespace: it.ns, Name: secretName}, s); err != nil {
		t.Fatal(err)
	}
	s.Data = map[string][]byte{"accesskey": []byte(rotatedAK), "secretkey": []byte(rotatedSK)}
	if err := it.kube.Update(ctx(t), s); err != nil {
		t.Fatal(err)
	}
	it.g.Eventually(func() bool {
		live, _ := it.local.Tier("COLD")
		return live.AccessKey == rotatedAK && live.SecretKey == rotatedSK
	}).WithTimeout(5*time.Second).WithPolling(50*time.Millisecond).Should(gomega.BeTrue(),
		"the rotated credentials did not reach RustFS within 5 seconds")
	got := &v1alpha1.Tier{}
	it.g.Eventually(func(g gomega.Gomega) {
		g.Expect(it.kube.Get(ctx(t), client.ObjectKeyFromObject(cr), got)).To(gomega.Succeed())
		g.Expect(got.Status.AtProvider.Credentials).To(gomega.Equal(&v1alpha1.TierCredentialsStatus{
			SecretName: secretName, SecretResourceVersion: s.ResourceVersion, AccessKeyHash: hashKey(rotatedAK)}))
	}).WithTimeout(5*time.Second).Should(gomega.Succeed(), "status.atProvider.credentials must record the rotated Secret")
	if n := it.local.Count(rustfstest.RouteEditTier) - edits; n != 1 {
		t.Errorf("credential edits after the rotation: got %d, want exactly 1", n)
	}
	it.checkNoSecrets(got)
}

func TestManagerHoldsNoCacheOfSecretData(t *testing.T) {
	log := &requestLog{}
	it := newITest(t, "nocache", log)
	cr := it.tier("cold")
	it.create(cr)
	it.waitFor(cr, 10*time.Second, readyAndFree)

	// The metadata informer lists, then watches; the controller reads the
	// tier and admin Secrets one by one through the API reader.
	var bulk []string
	it.g.Eventually(func() []int {
		var lists, watches, reads int
		bulk, lists, watches, reads = secretRequests(log.all())
		return []int{min(lists, 1), min(watches, 1), min(reads, 1)}
	}).WithTimeout(10*time.Second).Should(gomega.Equal([]int{1, 1, 1}), "Secret lists, watches and reads")
	for _, r := range bulk {
		if !strings.Contains(r, "as=PartialObjectMetadata") {
			t.Errorf("the manager listed or watched Secret data, which caches it: %s; want metadata only", r)
		}
	}
	it.expectNoSecretValueCached()
}

// expectNoSecretValueCached applies the tier Secret the way client-side
// kubectl apply does, with the whole Secret, data included, in the
// last-applied-configuration annotation, and a label; once the manager's
// cache holds that version, no field of any cached Secret holds a value.
func (it *itest) expectNoSecretValueCached() {
	it.t.Helper()
	s := &corev1.Secret{}
	if err := it.kube.Get(ctx(it.t), client.ObjectKey{Namespace: it.ns, Name: secretName}, s); err != nil {
		it.t.Fatal(err)
	}
	applied, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Secret", "data": s.Data,
		"stringData": map[string]string{"secretkey": tierSK}, "metadata": map[string]any{"name": secretName, "namespace": it.ns}})
	if err != nil {
		it.t.Fatal(err)
	}
	s.Annotations = map[string]string{"kubectl.kubernetes.io/last-applied-configuration": string(applied)}
	s.Labels = map[string]string{"holds": base64.StdEncoding.EncodeToString([]byte(tierAK))[:8]}
	if err := it.kube.Update(ctx(it.t), s); err != nil {
		it.t.Fatal(err)
	}
	cached := &metav1.PartialObjectMetadataList{}
	cached.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
	it.g.Eventually(func(g gomega.Gomega) {
		g.Expect(it.mgr.GetCache().List(ctx(it.t), cached, client.InNamespace(it.ns))).To(gomega.Succeed())
		versions := map[string]string{}
		for _, m := range cached.Items {
			versions[m.Name] = m.ResourceVersion
		}
		g.Expect(versions).To(gomega.HaveKeyWithValue(secretName, s.ResourceVersion))
	}).WithTimeout(10*time.Second).Should(gomega.Succeed(), "the cache never saw the applied Secret")
	dump, err := json.Marshal(cached)
	if err != nil {
		it.t.Fatal(err)
	}
	values := map[string]string{"the secret key": tierSK, "the access key": tierAK, "the base64 secret key": base64.StdEncoding.EncodeToString([]byte(tierSK)),
		"the base64 access key": base64.StdEncoding.EncodeToString([]byte(tierAK)), "kubectl's annotation": "last-applied-configuration"}
	for what, v := range values {
		if bytes.Contains(dump, []byte(v)) {
			it.t.Errorf("the manager's cache holds %s in a Secret", what) // never the value itself
		}
	}
	for _, m := range cached.Items {
		if len(m.Annotations) != 0 || len(m.Labels) != 0 {
			it.t.Errorf("cached Secret %s keeps %d annotations and %d labels; want none", m.Name, len(m.Annotations), len(m.Labels))
		}
	}
}

// secretRequests sorts the recorded GETs of Secrets into bulk requests
// (lists and watches, returned for inspection) and reads of one Secret.
func secretRequests(reqs []string) (bulk []string, lists, watches, reads int) {
	for _, r := range reqs {
		method, rest, _ := strings.Cut(r, " ")
		target, _, _ := strings.Cut(rest, " ")
		path, query, _ := strings.Cut(target, "?")
		switch {
		case method != "GET" || !strings.Contains(path, "/secrets"):
			continue
		case !strings.HasSuffix(path, "/secrets"):
			reads++
			continue
		case strings.Contains(query, "watch=true"):
			watches++
		default:
			lists++
		}
		bulk = append(bulk, r)
	}
	return bulk, lists, watches, reads
}

// expectColumns evaluates the CRD's printer columns on the Tier, as kubectl
// get does.
func (it *itest) expectColumns(cr *v1alpha1.Tier, want map[string]string) {
	it.t.Helper()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := it.kube.Get(ctx(it.t), client.ObjectKey{Name: "tiers.rustfs.m.crossplane.io"}, crd); err != nil {
		it.t.Fatal(err)
	}
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cr)
	if err != nil {
		it.t.Fatal(err)
	}
	for _, col := range crd.Spec.Versions[0].AdditionalPrinterColumns {
		w, ok := want[col.Name]
		if !ok {
			continue
		}
		jp := jsonpath.New(col.Name)
		if err := jp.Parse("{" + col.JSONPath + "}"); err != nil {
			it.t.Fatal(err)
		}
		var b bytes.Buffer
		if err := jp.Execute(&b, obj); err != nil {
			it.t.Fatal(err)
		}
		if b.String() != w {
			it.t.Errorf("column %s: got %q, want %q", col.Name, b.String(), w)
		}
	}
}

// A Secret update to keys the remote refuses, with an hourly poll: the GA
// emulator probes the remote with them and refuses the edit; within seconds
// the Tier reports it (Synced=False, CredentialsRefused) and stays Ready with
// the keys RustFS kept; a fixed Secret is applied within seconds too.
func TestRefusedRotationIsReportedAndTheFixedSecretApplied(t *testing.T) {
	it := newITest(t, "refused", nil)
	cr := it.tier("cold")
	it.create(cr)
	it.waitFor(cr, 10*time.Second, readyAndFree)
	edits := it.local.Count(rustfstest.RouteEditTier)

	updateSecret := func(ak, sk string) {
		s := &corev1.Secret{}
		if err := it.kube.Get(ctx(t), client.ObjectKey{Namespace: it.ns, Name: secretName}, s); err != nil {
			t.Fatal(err)
		}
		s.Data = map[string][]byte{"accesskey": []byte(ak), "secretkey": []byte(sk)}
		if err := it.kube.Update(ctx(t), s); err != nil {
			t.Fatal(err)
		}
	}
	updateSecret(refusedAK, refusedSK)
	got := it.waitFor(cr, 5*time.Second, map[xpv2.ConditionType]string{
		xpv2.TypeReady: "True/Available", xpv2.TypeSynced: "False/ReconcileError"})
	if msg := got.GetCondition(xpv2.TypeSynced).Message; !strings.Contains(msg, "keeps the credentials it had") {
		t.Errorf("Synced message %q does not say that the tier keeps its credentials", msg)
	}
	if live, _ := it.local.Tier("COLD"); live.AccessKey != tierAK || live.SecretKey != tierSK {
		t.Errorf("after the refused rotation RustFS has access key %s, want the previous keys", keyLabel(live.AccessKey))
	}
	if n := it.local.Count(rustfstest.RouteEditTier) - edits; n != 1 {
		t.Errorf("edits after the refused rotation: %d, want 1", n)
	}

	updateSecret(rotatedAK, rotatedSK)
	it.g.Eventually(func() bool {
		live, _ := it.local.Tier("COLD")
		return live.AccessKey == rotatedAK && live.SecretKey == rotatedSK
	}).WithTimeout(5*time.Second).WithPolling(50*time.Millisecond).Should(gomega.BeTrue(),
		"the fixed Secret's keys did not reach RustFS within 5 seconds")
	got = it.waitFor(cr, 5*time.Second, readyAndFree)
	it.checkNoSecrets(got)
}
