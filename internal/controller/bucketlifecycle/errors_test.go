package bucketlifecycle

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

type failureCase struct {
	reason    string
	fault     rustfstest.Fault
	wantReady string
	wantKey   string // the annotation recording the failure, if any
}

func updateFailureCases() map[string]failureCase {
	return map[string]failureCase{
		"Transient": {
			reason:    "A 503 is retried with backoff and keeps status.",
			fault:     rustfstest.Fault{Status: http.StatusServiceUnavailable, Code: "ServiceUnavailable", Message: "busy"},
			wantReady: isReady,
		},
		"InvalidTier": {
			reason:    "RustFS's invalid tier. is TierNotFound, retried with backoff.",
			fault:     rustfstest.Fault{Status: http.StatusBadRequest, Code: "InvalidArgument", Message: "invalid tier."},
			wantReady: "False/TierNotFound",
			wantKey:   keyRetry,
		},
		"NoSuchBucket": {
			reason:    "A bucket removed since Observe is BucketNotFound, retried with backoff.",
			fault:     rustfstest.Fault{Status: http.StatusNotFound, Code: "NoSuchBucket", Message: "The specified bucket does not exist"},
			wantReady: "False/BucketNotFound",
			wantKey:   keyRetry,
		},
		"AccessDenied": {
			reason:    "Refused credentials block the write until the ProviderConfig changes.",
			fault:     rustfstest.Fault{Status: http.StatusForbidden, Code: "AccessDenied", Message: "Access Denied"},
			wantReady: "False/LifecycleApplyFailed",
			wantKey:   memo.BlockKey,
		},
	}
}

func TestUpdateFailures(t *testing.T) {
	for name, tc := range updateFailureCases() {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			cr := h.converge(h.store(lifecycle()), 3)
			cr = h.edit(cr, withRules(specRule("expire", expireAfter(9))))
			h.rfs.InjectFault(putRoute, tc.fault)

			cr, phase, err := h.reconcile(cr)
			if phase != "update" || err == nil {
				t.Fatalf("%s\nwant a failed update, got %s (%v)", tc.reason, phase, err)
			}
			if ae := (*rustfs.APIError)(nil); !errors.As(err, &ae) || ae.Code != tc.fault.Code {
				t.Errorf("%s\nerrors.As(%v, *rustfs.APIError): got %v, want RustFS's %s", tc.reason, err, ae, tc.fault.Code)
			}
			if got := condition(cr, xpv2.TypeReady); got != tc.wantReady {
				t.Errorf("%s\nReady: want %s, got %s", tc.reason, tc.wantReady, got)
			}
			for _, k := range []string{keyRetry, memo.BlockKey} {
				if _, ok := cr.GetAnnotations()[k]; ok != (k == tc.wantKey) {
					t.Errorf("%s\nannotation %s: want present %t, got %t", tc.reason, k, k == tc.wantKey, ok)
				}
			}
		})
	}
}

func TestBlockedUntilSpecChanges(t *testing.T) {
	h := newHarness(t)
	h.rfs.CreateBucket("locked", true)
	cr := h.store(lifecycle(withBucket("locked"), withRules(specRule("markers", delMarkersAfter(3)))))

	if _, phase, err := h.reconcile(cr); phase != "create" || err == nil {
		t.Fatalf("a put RustFS refuses: want a failed create, got %s (%v)", phase, err)
	}
	for range 3 {
		got, phase, err := h.reconcile(cr)
		if phase != "observe" || err == nil {
			t.Fatalf("while blocked: want an Observe error, got %s (%v)", phase, err)
		}
		cr = got
	}
	c := cr.GetCondition(xpv2.TypeReady)
	if c.Reason != v1alpha1.ReasonLifecycleApplyFailed || !strings.Contains(c.Message, "object locked bucket") {
		t.Errorf("Ready: want LifecycleApplyFailed with RustFS's reason, got %s: %q", c.Reason, c.Message)
	}
	if n := h.rfs.Count(putRoute); n != 1 {
		t.Errorf("while blocked: want 1 PUT in all, got %d", n)
	}

	cr = h.converge(h.edit(cr, withRules(specRule("markers", expireAfter(3)))), 3)
	if got := condition(cr, xpv2.TypeReady); got != isReady {
		t.Errorf("after fixing the spec, Ready: want %s, got %s", isReady, got)
	}
	if _, ok := cr.GetAnnotations()[memo.BlockKey]; ok {
		t.Errorf("the block survived a successful put")
	}
}

func TestDuplicateLifecycle(t *testing.T) {
	cases := map[string]struct {
		reason    string
		endpoint  string // of the second resource's ProviderConfig: "" (the same), "respelled" or "other"
		wantReady string
	}{
		"SameEndpoint": {
			reason:    "A second BucketLifecycle for the same bucket on the same endpoint writes nothing.",
			wantReady: "False/DuplicateLifecycle",
		},
		"SameEndpointOtherSpelling": {
			reason:    "Endpoints are compared normalised.",
			endpoint:  "respelled",
			wantReady: "False/DuplicateLifecycle",
		},
		"OtherEndpoint": {
			reason:    "The same bucket name on another RustFS is another bucket.",
			endpoint:  "other",
			wantReady: isReady,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			first := h.converge(h.store(lifecycle()), 3)
			second := lifecycle(withMeta("team-b", "second", time.Minute), withRules(specRule("other", expireAfter(1))))
			h.useEndpoint(second, tc.endpoint)
			before, live := h.rfs.Writes(), h.liveXML()

			got, phase, err := h.reconcile(h.store(second))
			if tc.wantReady == isReady && err == nil {
				got = h.converge(got, 2)
			}
			if gotReady := condition(got, xpv2.TypeReady); gotReady != tc.wantReady {
				t.Fatalf("%s\nReady: want %s, got %s (%s: %v)", tc.reason, tc.wantReady, gotReady, phase, err)
			}
			if tc.wantReady == isReady {
				return
			}
			// The owner is in another namespace: the message must not name it.
			if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "a resource in another namespace") &&
				!strings.Contains(msg, "A resource in another namespace") || strings.Contains(msg, first.Namespace) {
				t.Errorf("%s\nthe DuplicateLifecycle message must say the owner is in another namespace without naming it: %q", tc.reason, msg)
			}
			if w := h.rfs.Writes() - before; w != 0 || h.liveXML() != live {
				t.Errorf("%s\nthe duplicate wrote %d times", tc.reason, w)
			}
		})
	}
}

// useEndpoint points cr at a ClusterProviderConfig for the harness's
// emulator spelled differently ("respelled"), or for another emulator
// ("other"); "" leaves it on the harness's.
func (h *harness) useEndpoint(cr *v1alpha1.BucketLifecycle, endpoint string) {
	switch endpoint {
	case "respelled":
		h.addConfig("second", strings.Replace(h.rfs.URL(), "http://", "HTTP://", 1)+"/")
	case "other":
		other := rustfstest.NewServer(rustfstest.WithRootCredentials(adminAK, adminSK))
		h.t.Cleanup(other.Close)
		other.CreateBucket(bucketName, false)
		h.addConfig("second", other.URL())
	default:
		return
	}
	withProviderConfig("second")(cr)
}
