package manager_test

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The manager's client reads what it just wrote, though its cache learns
// of each write only from the watch: a Get right after an Update returns
// the updated object every time (without OwnWrites most of these reads
// return the version the Update replaced).
func TestManagerClientReadsItsOwnWrites(t *testing.T) {
	testenv.Skip(t)
	ctx := context.Background()
	mgr := env.StartManager(t, options.ControllerSettings{})
	c := mgr.GetClient()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "own-writes"}}
	if err := env.Client.Create(ctx, cm); err != nil {
		t.Fatalf("cannot create the ConfigMap: %v", err)
	}
	t.Cleanup(func() { _ = env.Client.Delete(ctx, cm) })
	key := client.ObjectKeyFromObject(cm)
	stale := 0
	for i := range 50 {
		got := &corev1.ConfigMap{}
		if err := c.Get(ctx, key, got); err != nil {
			t.Fatalf("Get %d: %v", i, err)
		}
		if i > 0 && got.Data["n"] != fmt.Sprint(i-1) {
			stale++
		}
		got.Data = map[string]string{"n": fmt.Sprint(i)}
		if err := c.Update(ctx, got); err != nil {
			t.Fatalf("Update %d: %v", i, err)
		}
	}
	if stale > 0 {
		t.Errorf("%d of 49 reads right after an update returned an older version", stale)
	}
}
