package tier

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
)

func requestNames(rs []reconcile.Request) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.String())
	}
	sort.Strings(out)
	return out
}

func TestSecretMapsToTheTiersUsingIt(t *testing.T) {
	kube := fakeKube(t,
		tier("http://r", withMeta(ns, "a", 0)), tier("http://r", withMeta(ns, "b", 0), withName("WARM")),
		tier("http://r", withMeta(ns, "c", 0), withSecret("other")), tier("http://r", withMeta("team-b", "d", 0)))
	s := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: secretName}}
	got := requestNames(tiersUsingSecret(kube, logging.NewNopLogger())(ctx(t), s))
	if diff := cmp.Diff([]string{"team-a/a", "team-a/b"}, got); diff != "" {
		t.Errorf("Tiers enqueued for a Secret change (same namespace, same Secret): -want +got:\n%s", diff)
	}
}
