package bucket

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

func TestCreateAndAdopt(t *testing.T) {
	cases := map[string]struct {
		reason      string
		existing    bool // the bucket exists before the Bucket
		bucket      *v1alpha1.Bucket
		wantCreates int
		wantAtProv  v1alpha1.BucketObservation
	}{
		"Create": {
			reason:      "A missing bucket is created with object lock, then its versioning is set.",
			bucket:      bucket(withObjectLock(), withVersioning(v1alpha1.VersioningEnabled)),
			wantCreates: 1,
			wantAtProv:  v1alpha1.BucketObservation{Region: "us-east-1", ObjectLock: true, Versioning: v1alpha1.VersioningEnabled, Usage: noBytes()},
		},
		"Adopt": {
			reason:     "An existing bucket with matching settings is adopted without a write.",
			existing:   true,
			bucket:     bucket(),
			wantAtProv: v1alpha1.BucketObservation{Region: "us-east-1", Adopted: true, Usage: noBytes()},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, "")
			if tc.existing {
				h.rfs.CreateBucket(bucketName, false)
			}
			b := h.converge(h.store(tc.bucket), 3)
			if got := condition(b); got != isReady {
				t.Errorf("%s\nReady: want %s, got %s", tc.reason, isReady, got)
			}
			if diff := cmp.Diff(tc.wantAtProv, b.Status.AtProvider); diff != "" {
				t.Errorf("%s\nstatus.atProvider: -want, +got:\n%s", tc.reason, diff)
			}
			if n := h.rfs.Count(rustfstest.RouteCreateBucket); n != tc.wantCreates {
				t.Errorf("%s\nCreateBucket calls: want %d, got %d", tc.reason, tc.wantCreates, n)
			}
			if tc.existing && h.rfs.Writes() != 0 {
				t.Errorf("%s\nadoption: want no writes, got %d", tc.reason, h.rfs.Writes())
			}
			h.converge(b, 1)
		})
	}
}

func TestVersioningUpdate(t *testing.T) {
	h := newHarness(t, "")
	h.rfs.CreateBucket(bucketName, false)
	b := h.converge(h.store(bucket(withVersioning(v1alpha1.VersioningEnabled))), 3)
	b = h.converge(h.edit(b, withVersioning(v1alpha1.VersioningSuspended)), 3)

	if got := h.rfs.BucketVersioning(bucketName); got != "Suspended" {
		t.Errorf("versioning: want Suspended, got %q", got)
	}
	if n := h.rfs.Count(rustfstest.RoutePutVersioning); n != 2 {
		t.Errorf("want 2 versioning puts (enable, suspend), got %d", n)
	}
	if b.Status.AtProvider.Versioning != v1alpha1.VersioningSuspended {
		t.Errorf("status.atProvider.versioning: want Suspended, got %q", b.Status.AtProvider.Versioning)
	}
}

type conflictCase struct {
	reason     string
	pcRegion   string
	server     string // the region the emulator reports
	lock       bool   // the existing bucket has object lock
	bucket     *v1alpha1.Bucket
	wantReason string
	wantField  string
}

func conflictCases() map[string]conflictCase {
	return map[string]conflictCase{
		"ObjectLockOnLive": {
			reason: "Adopting a bucket with object lock for a spec without is a conflict.",
			lock:   true, bucket: bucket(),
			wantReason: "False/BucketConflict", wantField: "spec.forProvider.objectLock: live true, desired false",
		},
		"ObjectLockInSpec": {
			reason:     "Object lock cannot be enabled on an existing bucket.",
			bucket:     bucket(withObjectLock()),
			wantReason: "False/BucketConflict", wantField: "spec.forProvider.objectLock: live false, desired true",
		},
		"Region": {
			reason: "A bucket in another region is a conflict.",
			server: "eu-west-1", bucket: bucket(),
			wantReason: "False/BucketConflict", wantField: `spec.forProvider.region: live "eu-west-1", desired "us-east-1"`,
		},
		"RegionFromProviderConfig": {
			reason: "Without a spec region, the ProviderConfig's region is compared.",
			server: "eu-west-1", pcRegion: "eu-west-1", bucket: bucket(),
			wantReason: isReady,
		},
		"RegionFromSpec": {
			reason: "The spec's region is compared.",
			server: "eu-west-1", pcRegion: "us-east-1", bucket: bucket(withRegion("eu-west-1")),
			wantReason: isReady,
		},
	}
}

func TestBucketConflict(t *testing.T) {
	for name, tc := range conflictCases() {
		t.Run(name, func(t *testing.T) {
			var opts []rustfstest.Option
			if tc.server != "" {
				opts = append(opts, rustfstest.WithRegion(tc.server))
			}
			h := newHarness(t, tc.pcRegion, opts...)
			h.rfs.CreateBucket(bucketName, tc.lock)
			b, phase, err := h.reconcile(h.store(tc.bucket))
			if got := condition(b); got != tc.wantReason {
				t.Fatalf("%s\nReady: want %s, got %s (%s: %v)", tc.reason, tc.wantReason, got, phase, err)
			}
			if msg := b.GetCondition("Ready").Message; !strings.Contains(msg, tc.wantField) {
				t.Errorf("%s\nthe message does not name %q: %q", tc.reason, tc.wantField, msg)
			}
			if tc.wantField != "" && (phase != "observe" || err == nil) {
				t.Errorf("%s\na conflict must fail Observe, got %s (%v)", tc.reason, phase, err)
			}
			if w := h.rfs.Writes(); w != 0 {
				t.Errorf("%s\nwant no writes, got %d", tc.reason, w)
			}
		})
	}
}

func TestInvalidBucketName(t *testing.T) {
	cases := map[string]struct {
		reason string
		name   string
		rule   string
	}{
		"Uppercase":    {reason: "S3 bucket names are lowercase.", name: "App-Data", rule: "lowercase letters"},
		"AdjacentDots": {reason: "S3 bucket names have no '..'.", name: "app..data", rule: "two adjacent periods"},
		"IPAddress":    {reason: "S3 bucket names are not IP addresses.", name: "10.0.0.1", rule: "IP address"},
		"Reserved":     {reason: "S3 reserves the xn-- prefix.", name: "xn--data", rule: "reserved prefix"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, "")
			b, phase, err := h.reconcile(h.store(bucket(withExternalName(tc.name))))
			if phase != "observe" || err == nil {
				t.Fatalf("%s\nwant an Observe error, got %s (%v)", tc.reason, phase, err)
			}
			if got := condition(b); got != "False/InvalidBucketName" {
				t.Errorf("%s\nReady: want False/InvalidBucketName, got %s", tc.reason, got)
			}
			if msg := b.GetCondition("Ready").Message; !strings.Contains(msg, tc.rule) {
				t.Errorf("%s\nthe message does not name the rule %q: %q", tc.reason, tc.rule, msg)
			}
			if n := len(h.rfs.Requests()); n != 0 {
				t.Errorf("%s\nwant no request to RustFS, got %d", tc.reason, n)
			}
		})
	}
}

func TestBlockedCreate(t *testing.T) {
	h := newHarness(t, "")
	h.rfs.InjectFault(rustfstest.RouteCreateBucket, rustfstest.Fault{Status: http.StatusForbidden, Code: "AccessDenied", Message: "Access Denied", Times: 1})
	b, phase, err := h.reconcile(h.store(bucket()))
	if phase != "create" || err == nil {
		t.Fatalf("want a failed create, got %s (%v)", phase, err)
	}
	if ae := (*rustfs.APIError)(nil); !errors.As(err, &ae) || ae.Code != "AccessDenied" {
		t.Errorf("errors.As(%v, *rustfs.APIError): got %v, want RustFS's AccessDenied", err, ae)
	}
	for range 3 {
		if b, phase, err = h.reconcile(b); phase != "observe" || err == nil {
			t.Fatalf("while blocked: want an Observe error, got %s (%v)", phase, err)
		}
	}
	if got := condition(b); got != "False/BucketApplyFailed" {
		t.Errorf("Ready: want False/BucketApplyFailed, got %s", got)
	}
	if n := h.rfs.Count(rustfstest.RouteCreateBucket); n != 1 {
		t.Errorf("while blocked: want 1 create in all, got %d", n)
	}
	b = h.converge(h.edit(b, withVersioning(v1alpha1.VersioningEnabled)), 3)
	if got := condition(b); got != isReady {
		t.Errorf("after a spec change, Ready: want %s, got %s", isReady, got)
	}
	if _, ok := b.GetAnnotations()[memo.BlockKey]; ok {
		t.Errorf("the block survived a successful create")
	}
}

func TestTransientUpdate(t *testing.T) {
	h := newHarness(t, "")
	h.rfs.CreateBucket(bucketName, false)
	b := h.converge(h.store(bucket()), 3)
	h.rfs.InjectFault(rustfstest.RoutePutVersioning, rustfstest.Fault{Status: http.StatusServiceUnavailable, Code: "ServiceUnavailable", Times: 1})

	b, phase, err := h.reconcile(h.edit(b, withVersioning(v1alpha1.VersioningEnabled)))
	if phase != "update" || err == nil {
		t.Fatalf("want a failed update, got %s (%v)", phase, err)
	}
	if _, ok := b.GetAnnotations()[memo.BlockKey]; ok {
		t.Errorf("a transient failure blocked the write")
	}
	h.converge(b, 3)
	if got := h.rfs.BucketVersioning(bucketName); got != "Enabled" {
		t.Errorf("after the retry, versioning: want Enabled, got %q", got)
	}
}

func TestDeleteRetainsBucket(t *testing.T) {
	h := newHarness(t, "")
	h.rfs.CreateBucket(bucketName, false)
	b := h.converge(h.store(bucket()), 3)
	before := len(h.rfs.Requests())
	e, err := h.connector().Connect(ctx(t), b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Delete(ctx(t), b); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if n := len(h.rfs.Requests()) - before; n != 0 {
		t.Errorf("Delete: want no request to RustFS, got %d", n)
	}
}
