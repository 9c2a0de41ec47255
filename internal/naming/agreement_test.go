package naming_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/function/tenant"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}

// A verdict is whether one copy of a rule set accepts a name, and its
// error when it does not.
type verdict struct {
	ok  bool
	err string
}

func verdictOf(err error) verdict {
	if err == nil {
		return verdict{ok: true}
	}
	return verdict{err: err.Error()}
}

// Every tier name of the table goes through the Go validator, the Tier
// CRD's CEL rules, the Tenant XRD's (as a tier name and as a transition's
// storage class) and the Tenant function; they all accept it or all refuse
// it, and the refusals name the rule the Go validator names.
func TestTierNameCopiesAgree(t *testing.T) {
	testenv.Skip(t)
	env.InstallTenantCRDs(t)
	for name, tc := range naming.TierCases {
		t.Run(name, func(t *testing.T) {
			withName := func(s map[string]any) {
				first(s, "tiers")["name"] = tc.Name
				transition(s)["storageClass"] = tc.Name
			}
			expectAgreement(t, tc, naming.TierName(tc.Name), map[string]verdict{
				"Tier CRD":        verdictOf(createTier(t, tc.Name)),
				"Tenant XRD":      verdictOf(createTenant(t, withName)),
				"Tenant function": verdictOf(runFunction(t, withName)),
			})
		})
	}
}

// Every bucket name of the table goes through the Go validator (which the
// Bucket, BucketLifecycle and BucketAccess controllers run), the CEL rules
// of every field that names a bucket (BucketLifecycle's bucket,
// BucketAccess's buckets[].bucket, the Tenant XRD's buckets[].name) and the
// Tenant function; they agree.
func TestBucketNameCopiesAgree(t *testing.T) {
	testenv.Skip(t)
	env.InstallTenantCRDs(t)
	for name, tc := range naming.BucketCases {
		t.Run(name, func(t *testing.T) {
			withName := func(s map[string]any) { first(s, "buckets")["name"] = tc.Name }
			withAccess := func(s map[string]any) { // the Tenant XRD requires spec.buckets to name it too
				withName(s)
				s["access"] = []any{map[string]any{"name": "app", "access": "ReadOnly", "buckets": []any{tc.Name}}}
			}
			expectAgreement(t, tc, naming.BucketName(tc.Name), map[string]verdict{
				"BucketLifecycle CRD": verdictOf(createLifecycle(t, tc.Name)),
				"BucketAccess CRD":    verdictOf(createAccess(t, tc.Name)),
				"Tenant XRD":          verdictOf(createTenant(t, withName)),
				"Tenant XRD access":   verdictOf(createTenant(t, withAccess)),
				"Tenant function":     verdictOf(runFunction(t, withName)),
			})
		})
	}
}

// expectAgreement fails unless every copy agrees with the Go validator's
// goErr, and each refusal names the broken rule (the API server's own
// length messages aside).
func expectAgreement(t *testing.T, tc naming.Case, goErr error, copies map[string]verdict) {
	t.Helper()
	if (goErr == nil) != (tc.Want == "") {
		t.Fatalf("%s\nGo validator: got %v, want a refusal containing %q", tc.Reason, goErr, tc.Want)
	}
	rule := ""
	var ne *naming.Error
	if goErr != nil && errors.As(goErr, &ne) && !strings.Contains(ne.Rule, "characters long") {
		rule = ne.Rule
	}
	for copyName, v := range copies {
		if v.ok != (goErr == nil) {
			t.Errorf("%s\n%q: the Go validator says %v, but the %s says %v", tc.Reason, tc.Name, goErr, copyName, v)
			continue
		}
		if !v.ok && rule != "" && !strings.Contains(v.err, firstWords(rule)) {
			t.Errorf("%s\n%q: the %s refuses it without naming the rule %q: %s", tc.Reason, tc.Name, copyName, rule, v.err)
		}
	}
}

// firstWords is the part of a rule's message before any explanation: what
// a combined CEL message (a transition's storage class) says of it too.
func firstWords(rule string) string {
	before, _, _ := strings.Cut(rule, ":")
	before, _, _ = strings.Cut(before, " (")
	return before
}

// createTier asks the API server, in a dry run, to create a Tier with
// spec.forProvider.name name.
func createTier(t *testing.T, name string) error {
	t.Helper()
	cr := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "agreement"}}
	cr.Spec.ForProvider = v1alpha1.TierParameters{Name: name, Type: v1alpha1.TierTypeS3, Endpoint: "https://s3.example.com",
		Bucket: "remote", CredentialsSecretRef: v1alpha1.TierSecretReference{Name: "remote"}}
	return env.Client.Create(context.Background(), cr, client.DryRunAll)
}

// createLifecycle asks the API server, in a dry run, to create a
// BucketLifecycle of bucket.
func createLifecycle(t *testing.T, bucket string) error {
	t.Helper()
	cr := &v1alpha1.BucketLifecycle{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "agreement"}}
	cr.Spec.ForProvider = v1alpha1.BucketLifecycleParameters{Bucket: bucket, Rules: []v1alpha1.LifecycleRule{}}
	return env.Client.Create(context.Background(), cr, client.DryRunAll)
}

// createAccess asks the API server, in a dry run, to create a BucketAccess
// granting bucket.
func createAccess(t *testing.T, bucket string) error {
	t.Helper()
	cr := &v1alpha1.BucketAccess{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "agreement"}}
	cr.Spec.ForProvider.Buckets = []v1alpha1.BucketGrant{{Bucket: bucket, Access: v1alpha1.AccessReadOnly}}
	cr.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "agreement"}
	return env.Client.Create(context.Background(), cr, client.DryRunAll)
}

// exampleTenant is examples/tenant/tenant.yaml without its access entries
// (they name the example's bucket, which the cases rename), changed by mod.
func exampleTenant(t *testing.T, mod func(spec map[string]any)) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "examples", "tenant", "tenant.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(b, &u.Object); err != nil {
		t.Fatal(err)
	}
	spec := u.Object["spec"].(map[string]any)
	delete(spec, "access")
	mod(spec)
	return u
}

// createTenant asks the API server, in a dry run, to create the example
// Tenant changed by mod.
func createTenant(t *testing.T, mod func(spec map[string]any)) error {
	t.Helper()
	return env.Client.Create(context.Background(), exampleTenant(t, mod), client.DryRunAll)
}

// runFunction runs the Tenant function on the example Tenant changed by
// mod and returns its fatal result as an error.
func runFunction(t *testing.T, mod func(spec map[string]any)) error {
	t.Helper()
	b, err := json.Marshal(exampleTenant(t, mod).Object)
	if err != nil {
		t.Fatal(err)
	}
	req := &fnv1.RunFunctionRequest{Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: resource.MustStructJSON(string(b))}}}
	rsp, err := tenant.NewFunction(logging.NewNopLogger()).RunFunction(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rsp.GetResults() {
		if r.GetSeverity() == fnv1.Severity_SEVERITY_FATAL {
			return fatal(r.GetMessage())
		}
	}
	return nil
}

// A fatal is the message of a fatal function result.
type fatal string

func (f fatal) Error() string { return string(f) }

func first(spec map[string]any, list string) map[string]any {
	return spec[list].([]any)[0].(map[string]any)
}

// transition is the example's transition, to the tier COLD.
func transition(spec map[string]any) map[string]any {
	rules := first(spec, "buckets")["lifecycle"].(map[string]any)["rules"].([]any)
	return rules[0].(map[string]any)["transition"].(map[string]any)
}
