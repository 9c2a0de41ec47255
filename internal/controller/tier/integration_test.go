package tier

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/jsonpath"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
	if live, ok := it.local.Tier("COLD"); !ok || live.AccessKey != tierAK || live.SecretKey != tierSK || live.Prefix != tierPrefix {
		t.Fatalf("RustFS tier COLD: registered %t, not with the spec's prefix and the Secret's keys", ok)
	}
	if got.Spec.ManagementPolicies == nil || got.GetAnnotations()["crossplane.io/external-name"] != "COLD" {
		t.Errorf("policies %v, external name %q; want the Retain-only default and COLD", got.Spec.ManagementPolicies, got.GetAnnotations()["crossplane.io/external-name"])
	}
	if got.Status.AtProvider.Credentials == nil || got.Status.AtProvider.Credentials.SecretName != secretName || got.Status.AtProvider.Adopted {
		t.Errorf("status.atProvider: %+v; want the applied Secret recorded and adopted false", got.Status.AtProvider)
	}
	it.expectColumns(got, map[string]string{"READY": "True", "SYNCED": "True", "CONFLICT": "False", "TIER": "COLD", "TYPE": "RustFS"})

	// A prefix RustFS cannot change: a conflict, and no write.
	writes := it.local.Writes()
	got.Spec.ForProvider.Prefix = "elsewhere/"
	if err := it.kube.Update(ctx(t), got); err != nil {
		t.Fatal(err)
	}
	got = it.waitFor(cr, 10*time.Second, drifted)
	it.expectColumns(got, map[string]string{"READY": "False", "CONFLICT": "True"})
	if !strings.Contains(got.GetCondition(v1alpha1.TypeTierConflict).Message, `spec.forProvider.prefix is "elsewhere/" but RustFS has "tenant-a/"`) {
		t.Errorf("conflict message: %s", got.GetCondition(v1alpha1.TypeTierConflict).Message)
	}

	// Corrected: the conflict clears on the next reconcile.
	got.Spec.ForProvider.Prefix = tierPrefix
	if err := it.kube.Update(ctx(t), got); err != nil {
		t.Fatal(err)
	}
	got = it.waitFor(cr, 10*time.Second, readyAndFree)
	it.expectColumns(got, map[string]string{"CONFLICT": "False"})
	if w := it.local.Writes(); w != writes {
		t.Errorf("the conflict and its correction wrote %d times, want 0", w-writes)
	}

	// Deleting the Tier leaves the RustFS tier in place.
	if err := it.kube.Delete(ctx(t), got); err != nil {
		t.Fatal(err)
	}
	it.g.Eventually(func() bool {
		return kerrors.IsNotFound(it.kube.Get(ctx(t), client.ObjectKeyFromObject(cr), &v1alpha1.Tier{}))
	}).WithTimeout(10 * time.Second).Should(gomega.BeTrue())
	if _, ok := it.local.Tier("COLD"); !ok || it.local.Count(rustfstest.RouteRemoveTier) != 0 {
		t.Errorf("after deleting the Tier: tier present %t, %d removes; want the tier kept and no remove", ok, it.local.Count(rustfstest.RouteRemoveTier))
	}
	it.checkNoSecrets(got)
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
	got := it.waitFor(cr, 5*time.Second, readyAndFree)
	if n := it.local.Count(rustfstest.RouteEditTier) - edits; n != 1 {
		t.Errorf("credential edits after the rotation: got %d, want exactly 1", n)
	}
	if c := got.Status.AtProvider.Credentials; c == nil || c.SecretResourceVersion != s.ResourceVersion || c.AccessKeyHash != hashKey(rotatedAK) {
		t.Errorf("status.atProvider.credentials %+v does not record the rotated Secret version %s", c, s.ResourceVersion)
	}
	it.checkNoSecrets(got)
}

func TestManagerHoldsNoCacheOfSecretData(t *testing.T) {
	log := &requestLog{}
	it := newITest(t, "nocache", log)
	cr := it.tier("cold")
	it.create(cr)
	it.waitFor(cr, 10*time.Second, readyAndFree)

	var lists, watches, reads int
	for _, r := range log.all() {
		method, rest, _ := strings.Cut(r, " ")
		path, accept, _ := strings.Cut(rest, " ")
		path, query, _ := strings.Cut(path, "?")
		if method != "GET" || !strings.Contains(path, "/secrets") {
			continue
		}
		if !strings.HasSuffix(path, "/secrets") { // one named Secret: the API reader
			reads++
			continue
		}
		if strings.Contains(query, "watch=true") {
			watches++
		} else {
			lists++
		}
		if !strings.Contains(accept, "as=PartialObjectMetadata") {
			t.Errorf("the manager read Secret data in bulk (%s %s?%s), which would cache it; want metadata only", method, path, query)
		}
	}
	if lists == 0 || watches == 0 || reads == 0 {
		t.Errorf("saw %d Secret lists, %d watches and %d reads; want the metadata watch and direct reads to be exercised", lists, watches, reads)
	}
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
