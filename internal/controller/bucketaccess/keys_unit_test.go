package bucketaccess

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// withoutBuckets against the emulator: a key loses only the buckets gone; a
// key left with none, or without a session policy of its own, is deleted;
// a key under another parent user, or gone already, is left alone.
func TestWithoutBuckets(t *testing.T) {
	const ak, ns = "XPKEYSWITHOUTBUCKET1", "owner"
	parent, err := rustfs.ParentUserName(ns)
	if err != nil {
		t.Fatal(err)
	}
	policy := func(buckets ...string) string { return readOnlyPolicy(t, buckets...) }
	cases := map[string]struct {
		seed   *rustfstest.ServiceAccountRecord
		gone   []string
		exists bool
		want   string
	}{
		"Narrowed":      {seed: &rustfstest.ServiceAccountRecord{Parent: parent, Policy: policy("aaa", "bbb")}, gone: []string{"aaa"}, exists: true, want: policy("bbb")},
		"LeftWithNone":  {seed: &rustfstest.ServiceAccountRecord{Parent: parent, Policy: policy("aaa")}, gone: []string{"aaa"}},
		"ImpliedPolicy": {seed: &rustfstest.ServiceAccountRecord{Parent: parent}, gone: []string{"aaa"}},
		"OtherParent":   {seed: &rustfstest.ServiceAccountRecord{Parent: "someone", Policy: policy("aaa")}, gone: []string{"aaa"}, exists: true, want: policy("aaa")},
		"Gone":          {gone: []string{"aaa"}},
	}
	for n, tc := range cases {
		t.Run(n, func(t *testing.T) { narrowSeeded(t, ak, ns, tc.seed, tc.gone, tc.exists, tc.want) })
	}
}

// readOnlyPolicy is the session policy granting buckets read-only.
func readOnlyPolicy(t *testing.T, buckets ...string) string {
	t.Helper()
	var g []rustfs.BucketGrant
	for _, b := range buckets {
		g = append(g, rustfs.BucketGrant{Bucket: b, Access: rustfs.ReadOnly})
	}
	p, err := rustfs.SessionPolicy(g)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// narrowSeeded seeds key ak (unless seed is nil), takes gone out of it
// and compares what is left with wantExists and the policy want.
func narrowSeeded(t *testing.T, ak, ns string, seed *rustfstest.ServiceAccountRecord, gone []string, wantExists bool, want string) {
	t.Helper()
	rfs := rustfstest.NewServer(rustfstest.WithRootCredentials(adminAK, adminSK))
	t.Cleanup(rfs.Close)
	if seed != nil {
		seed.AccessKey, seed.SecretKey = ak, "secret-of-the-seeded-key"
		if err := rfs.SeedServiceAccount(*seed); err != nil {
			t.Fatal(err)
		}
	}
	cl, err := rustfs.New(rustfs.Config{Endpoint: rfs.URL(), AccessKey: adminAK, SecretKey: adminSK})
	if err != nil {
		t.Fatal(err)
	}
	if err := withoutBuckets(context.Background(), cl, ns, ak, gone); err != nil {
		t.Fatalf("withoutBuckets: %v", err)
	}
	got, exists := rfs.ServiceAccount(ak)
	if exists != wantExists {
		t.Fatalf("key exists: got %t, want %t", exists, wantExists)
	}
	if !exists {
		return
	}
	g, err := rustfs.ParsePolicy(got.Policy)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := rustfs.ParsePolicy(want)
	if !rustfs.EqualPolicies(g, w) {
		t.Errorf("session policy: -want, +got:\n%s", cmp.Diff(w, g))
	}
}
