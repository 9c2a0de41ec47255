package bucketaccess

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/onsi/gomega"
	kerrors "k8s.io/apimachinery/pkg/api/errors"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}

const isReady = "True/Available"

// s3ops runs S3 calls with one key and returns each call's error code.
type s3ops struct {
	t  *testing.T
	c  *s3.Client
	ak string
}

func (o s3ops) get(bucket, key string) string {
	out, err := o.c.GetObject(ctx(o.t), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err == nil {
		_, _ = io.Copy(io.Discard, out.Body)
		_ = out.Body.Close()
	}
	return code(err)
}

func (o s3ops) put(bucket, key string) string {
	_, err := o.c.PutObject(ctx(o.t), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader([]byte("x"))})
	return code(err)
}

func (o s3ops) del(bucket, key string) string {
	_, err := o.c.DeleteObject(ctx(o.t), &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	return code(err)
}

func (o s3ops) list(bucket, prefix string) string {
	_, err := o.c.ListObjectsV2(ctx(o.t), &s3.ListObjectsV2Input{Bucket: aws.String(bucket), Prefix: aws.String(prefix)})
	return code(err)
}

func (c *cluster) ops(ak, sk string) s3ops {
	return s3ops{t: c.t, c: sdk(c.rfs.URL(), ak, sk), ak: ak}
}

// expect compares the codes of calls made with one key with want.
func expect(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for call, w := range want {
		if got[call] != w {
			t.Errorf("%s: %s: got %q, want %q", what, call, got[call], w)
		}
	}
}

// TestKeysEnforceTheirGrants proves, through the controller and over HTTP
// with the AWS SDK, what the keys it publishes may do: a ReadOnly key lists
// and gets but neither puts nor deletes; a key for bucket X is denied on Y;
// a prefix-scoped key cannot read outside its prefix. The poll interval is
// an hour, so everything follows from watches and the reconciler's own
// requeues.
func TestKeysEnforceTheirGrants(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Hour, v1alpha1.NameScopeCluster, "grants")
	x, y := ns[0]+"-x", ns[0]+"-y"
	c.bucket(ns[0], x)
	c.bucket(ns[0], y)
	c.rfs.PutObject(x, "in/a.txt", []byte("a"))
	c.rfs.PutObject(x, "out/b.txt", []byte("b"))
	c.rfs.PutObject(y, "c.txt", []byte("c"))

	ro := c.access(ns[0], "reader", withGrants(grant(x, v1alpha1.AccessReadOnly, "")))
	pre := c.access(ns[0], "prefixed", withGrants(grant(x, v1alpha1.AccessReadWrite, "in/")))
	c.waitFor(ro, xpv2.TypeReady, isReady, 20*time.Second)
	c.waitFor(pre, xpv2.TypeReady, isReady, 20*time.Second)

	r := c.ops(c.key(ro, ""))
	expect(t, "ReadOnly key on X", map[string]string{
		"list": r.list(x, ""), "get": r.get(x, "out/b.txt"), "put": r.put(x, "new.txt"), "delete": r.del(x, "out/b.txt"),
		"get Y": r.get(y, "c.txt"), "list Y": r.list(y, ""), "put Y": r.put(y, "new.txt"),
	}, map[string]string{
		"list": "", "get": "", "put": "AccessDenied", "delete": "AccessDenied",
		"get Y": "AccessDenied", "list Y": "AccessDenied", "put Y": "AccessDenied",
	})
	p := c.ops(c.key(pre, ""))
	expect(t, "ReadWrite key on X under in/", map[string]string{
		"get in": p.get(x, "in/a.txt"), "put in": p.put(x, "in/new.txt"), "list in": p.list(x, "in/"),
		"get out": p.get(x, "out/b.txt"), "put out": p.put(x, "out/new.txt"), "list out": p.list(x, "out/"), "list all": p.list(x, ""),
	}, map[string]string{
		"get in": "", "put in": "", "list in": "",
		"get out": "AccessDenied", "put out": "AccessDenied", "list out": "AccessDenied", "list all": "AccessDenied",
	})
	if got := c.rfs.Objects(x); strings.Contains(strings.Join(got, ","), "new.txt") && !strings.Contains(strings.Join(got, ","), "in/new.txt") {
		t.Errorf("a denied put stored an object: %v", got)
	}
	s := c.secret(ro)
	want := map[string]string{v1alpha1.ConnectionEndpoint: c.rfs.URL(), v1alpha1.ConnectionRegion: "us-east-1",
		v1alpha1.ConnectionAccessKey: r.ak, v1alpha1.ConnectionBuckets: x}
	for k, v := range want {
		if string(s.Data[k]) != v {
			t.Errorf("connection Secret key %s: got %q, want %q", k, s.Data[k], v)
		}
	}
	if got := c.get(ro).Status.AtProvider; got.AccessKey != r.ak || got.ParentUser == "" || fmt.Sprint(got.Buckets) != "["+x+"]" {
		t.Errorf("status.atProvider: got %+v", got)
	}
}

// TestRotationLossAndRevocation proves, through the controller: after
// rotation the old key is rejected and the Secret holds a new one that
// works; a deleted Secret gets a new key at once and the old one stops
// working; after the BucketAccess is deleted its key is rejected. None of
// the secret keys appears in status, annotations, events, the provider's
// logs or the emulator's request log.
func TestRotationLossAndRevocation(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Hour, v1alpha1.NameScopeCluster, "rotate")
	x := ns[0] + "-x"
	c.bucket(ns[0], x)
	c.rfs.PutObject(x, "a.txt", []byte("a"))
	cr := c.access(ns[0], "app", withGrants(grant(x, v1alpha1.AccessReadWrite, "")))
	c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)
	ak, sk1 := c.key(cr, "")
	if got := c.ops(ak, sk1).get(x, "a.txt"); got != "" {
		t.Fatalf("the first key cannot get: %q", got)
	}

	got := c.get(cr)
	if err := env.Edit(ctx(t), got, func() { got.Spec.ForProvider.Rotation = 1 }); err != nil {
		t.Fatal(err)
	}
	_, sk2 := c.key(cr, sk1)
	c.g.Eventually(func() int64 { return c.get(cr).Status.AtProvider.Rotation }, 20*time.Second, 50*time.Millisecond).Should(gomega.Equal(int64(1)))
	expectKey(t, c, "after rotation", x, ak, sk1, sk2)
	c.expectRotatedEvents(cr, 1)

	if err := env.Client.Delete(ctx(t), c.secret(cr)); err != nil {
		t.Fatal(err)
	}
	_, sk3 := c.key(cr, sk2)
	expectKey(t, c, "after the Secret was deleted", x, ak, sk2, sk3)
	c.expectRotatedEvents(cr, 2)

	// The managed reconciler waits out its 30 s grace period after a
	// Create before it believes a resource is gone.
	final := c.get(cr)
	if err := env.Client.Delete(ctx(t), final); err != nil {
		t.Fatal(err)
	}
	c.g.Eventually(func() bool {
		err := env.Client.Get(ctx(t), clientKey(cr), &v1alpha1.BucketAccess{})
		return kerrors.IsNotFound(err)
	}, 60*time.Second, 50*time.Millisecond).Should(gomega.BeTrue(), "the BucketAccess is gone: %s", gone(c, cr))
	if got := c.ops(ak, sk3).get(x, "a.txt"); got != "InvalidAccessKeyId" {
		t.Errorf("the key of a deleted BucketAccess: get: got %q, want InvalidAccessKeyId", got)
	}
	if _, ok := c.rfs.ServiceAccount(ak); ok {
		t.Error("the service account of a deleted BucketAccess still exists")
	}
	sentinel(t, c, ns[0], final, sk1, sk2, sk3)
}

// expectKey checks that the old secret key is rejected and the new one
// works.
func expectKey(t *testing.T, c *cluster, when, bucket, ak, old, cur string) {
	t.Helper()
	if got := c.ops(ak, old).get(bucket, "a.txt"); got != "SignatureDoesNotMatch" {
		t.Errorf("%s: the old secret key: get: got %q, want SignatureDoesNotMatch", when, got)
	}
	if got := c.ops(ak, cur).get(bucket, "a.txt"); got != "" {
		t.Errorf("%s: the new secret key: get: got %q, want success", when, got)
	}
}

// sentinel checks that no secret key, nor the admin's credentials, is in
// the resource's status or annotations, the namespace's events, the
// provider's log or the emulator's request log.
func sentinel(t *testing.T, c *cluster, ns string, cr *v1alpha1.BucketAccess, secrets ...string) {
	t.Helper()
	for where, text := range map[string]string{
		"status and annotations": statusText(t, cr),
		"events":                 strings.Join(c.events(ns), "\n"),
		"provider log":           c.log.String(),
		"emulator request log":   fmt.Sprint(c.rfs.Requests()),
	} {
		if l := leaks(text, secrets...); len(l) > 0 {
			t.Errorf("%s contains secret values #%v (0, 1: admin keys; 2...: the BucketAccess's secret keys)", where, l)
		}
	}
}

// gone describes what keeps a BucketAccess from going.
func gone(c *cluster, cr *v1alpha1.BucketAccess) fmt.Stringer {
	return stringer(func() string {
		got := &v1alpha1.BucketAccess{}
		if err := env.Client.Get(ctx(c.t), clientKey(cr), got); err != nil {
			return err.Error()
		}
		return fmt.Sprintf("finalizers %v, conditions %v", got.Finalizers, got.Status.Conditions)
	})
}

type stringer func() string

func (s stringer) String() string { return s() }

// A bucketSelector reaches the key's session policy: the managed
// reconciler resolves it to the labelled Bucket of the namespace, the
// resolved reference is stored (admission refuses it if it names a
// namespace), and the key can read that bucket and no other.
func TestBucketSelectorGrantsTheSelectedBucket(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Hour, v1alpha1.NameScopeCluster, "selector")
	x, y := ns[0]+"-x", ns[0]+"-y"
	c.bucket(ns[0], x)
	c.bucket(ns[0], y)
	c.rfs.PutObject(x, "a.txt", []byte("a"))
	c.rfs.PutObject(y, "b.txt", []byte("b"))
	b := bucketObject(ns[0], x, x, c.config)
	if err := env.Client.Get(ctx(t), clientKey(b), b); err != nil {
		t.Fatal(err)
	}
	b.SetLabels(map[string]string{"data": "x"})
	if err := env.Client.Update(ctx(t), b); err != nil {
		t.Fatal(err)
	}

	cr := c.access(ns[0], "selected", withGrants(v1alpha1.BucketGrant{Access: v1alpha1.AccessReadOnly,
		BucketSelector: &xpv2.NamespacedSelector{MatchLabels: map[string]string{"data": "x"}}}))
	got := c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)
	if g := got.Spec.ForProvider.Buckets[0]; g.Bucket != x || g.BucketRef == nil || g.BucketRef.Namespace != "" {
		t.Errorf("resolved grant: want bucket %q and a local bucketRef, got %q and %+v", x, g.Bucket, g.BucketRef)
	}
	r := c.ops(c.key(cr, ""))
	expect(t, "key granted the selected bucket", map[string]string{"get X": r.get(x, "a.txt"), "get Y": r.get(y, "b.txt")},
		map[string]string{"get X": "", "get Y": "AccessDenied"})
}
