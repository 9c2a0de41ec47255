package bucketlifecycle

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The rule model property test through the real API server: the generated
// specs pass the CRD's schema, defaults and CEL rules, the managed
// reconciler resolves their tier and bucket references and selectors, the
// controller puts them, and what the emulator stores matches the spec the API server holds,
// field by field (rulemodel_test.go's expect and decoder).
func TestRuleModelThroughTheAPIServer(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "rulemodel", time.Hour)
	for _, tier := range modelTiers {
		c.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: tier})
	}
	specs := modelSpecs(t, 7, 60)
	for i, s := range specs {
		bucket := fmt.Sprintf("model-%d", i)
		c.rfs.CreateBucket(bucket, false)
		objs := modelObjects(c.ns, bucket)
		if i > 0 {
			objs = objs[len(modelTiers):]
		}
		for _, o := range objs {
			c.create(o)
			markReady(t, o.(referenced))
		}
		c.create(c.lifecycle(bucket, s.nameBucket(bucket), withRules(s.rules...)))
	}
	for i := range specs {
		bucket := fmt.Sprintf("model-%d", i)
		cr := c.waitFor(c.lifecycle(bucket), xpv2.TypeReady, "True/Available", 60*time.Second)
		stored, ok := c.rfs.Lifecycle(bucket)
		if !ok {
			t.Fatalf("spec %d: nothing stored", i)
		}
		if diff := cmp.Diff(expect(t, cr.Spec.ForProvider.Rules), decodeStored(t, stored)); diff != "" {
			t.Errorf("spec %d: the stored rules differ from the spec on the API server (-spec +stored):\n%s", i, diff)
		}
	}
}
