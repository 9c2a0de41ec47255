package rustfstest

import (
	"net/http"
	"testing"
	"time"
)

// docs/rustfs-wire.md §12.1: routes on both prefixes; static tier/clear beats tier/{name}; unknown
// admin path → 501 (unsigned: 403, §0.1); an unrouted v4 path → 426 with an empty body.
func TestRoutesServedOnBothPrefixes(t *testing.T) {
	p := newPair(t, ModeRC)
	for _, prefix := range []string{"/rustfs/admin/v3", "/minio/admin/v3"} {
		got := do(t, p.local.URL(), req{method: http.MethodGet, path: prefix + "/tier"})
		if got.Status != http.StatusOK || string(got.Body) != "[]" {
			t.Errorf("%s/tier: want 200 [], got %d %s", prefix, got.Status, got.Body)
		}
	}
	if n := p.local.Count(RouteListTiers); n != 2 {
		t.Errorf("Count(RouteListTiers) = %d, want 2", n)
	}
}

func TestClearBeatsTierNameForPost(t *testing.T) {
	p := newPair(t, ModeRC)
	got := p.admin(t, http.MethodPost, "/tier/clear", "rand=wrong", nil)
	want(t, got, http.StatusBadRequest, "InvalidRequest", "invalid clear-tier confirmation token")
	if p.local.Count(RouteClearTiers) != 1 || p.local.Count(RouteEditTier) != 0 {
		t.Errorf("POST tier/clear was not routed to clear: %v", p.local.Counts())
	}
}

func TestUnknownAdminPathIsNotImplemented(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, p.admin(t, http.MethodGet, "/nothing-here", "", nil), http.StatusNotImplemented, "NotImplemented", "")
	want(t, do(t, p.local.URL(), req{method: http.MethodGet, path: "/rustfs/admin/v3/nothing-here", unsigned: true}),
		http.StatusForbidden, "AccessDenied", "Signature is required")
	got := do(t, p.local.URL(), req{method: http.MethodGet, path: "/rustfs/admin/v4/tier"})
	if got.Status != http.StatusUpgradeRequired || len(got.Body) != 0 {
		t.Errorf("v4: want 426 with no body, got %d %q", got.Status, got.Body)
	}
}

// docs/rustfs-wire.md §12.2: SigV4 verification.
func TestSignatureChecks(t *testing.T) {
	p := newPair(t, ModeRC, WithUser("viewer", "viewer-sk", "admin:ListTier"))
	list := req{method: http.MethodGet, path: "/rustfs/admin/v3/tier"}
	cases := map[string]struct {
		mod           func(r *req)
		status        int
		code, message string
	}{
		"UnsignedIsAccessDenied": {mod: func(r *req) { r.unsigned = true },
			status: 403, code: "AccessDenied", message: "Signature is required"},
		"BadSignatureIsSignatureDoesNotMatch": {mod: func(r *req) { r.ak, r.sk = DefaultAccessKey, "wrong" },
			status: 403, code: "SignatureDoesNotMatch"},
		"UnknownKeyIsInvalidAccessKeyId": {mod: func(r *req) { r.ak, r.sk = "nobody", "x" },
			status: 403, code: "InvalidAccessKeyId", message: "The Access Key Id you provided does not exist in our records."},
		"ClockSkewIsRequestTimeTooSkewed": {mod: func(r *req) { r.at = time.Now().Add(-16 * time.Minute) },
			status: 403, code: "RequestTimeTooSkewed"},
		"MissingContentSHA256IsInvalidRequest": {mod: func(r *req) { r.payload = "-" },
			status: 400, code: "InvalidRequest", message: "missing header: x-amz-content-sha256"},
		"UnknownServiceIsNotImplemented": {mod: func(r *req) { r.service = "iam" }, status: 501, code: "NotImplemented",
			message: "unknown service 'iam' in credential scope; expected 's3' or 'sts'"},
		"UnsignedPayloadIsAccepted":   {mod: func(r *req) { r.payload = "UNSIGNED-PAYLOAD" }, status: 200},
		"AnyRegionIsAccepted":         {mod: func(r *req) { r.region = "mars-north-7" }, status: 200},
		"SkewUnderFifteenMinutesIsOK": {mod: func(r *req) { r.at = time.Now().Add(-14 * time.Minute) }, status: 200},
		"NonRootWithListTierCanList":  {mod: func(r *req) { r.ak, r.sk = "viewer", "viewer-sk" }, status: 200},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := list
			tc.mod(&r)
			want(t, do(t, p.local.URL(), r), tc.status, tc.code, tc.message)
		})
	}
}

func TestMissingAmzDateIsInvalidRequest(t *testing.T) {
	p := newPair(t, ModeRC)
	r := req{method: http.MethodGet, path: "/rustfs/admin/v3/tier"}
	hr, _ := http.NewRequest(r.method, p.local.URL()+r.path, nil)
	signReq(t, hr, r)
	hr.Header.Del("X-Amz-Date")
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("want 400, got %d", resp.StatusCode)
	}
}

func TestNonRootWithoutSetTierIsAccessDenied(t *testing.T) {
	p := newPair(t, ModeRC, WithUser("viewer", "viewer-sk", "admin:ListTier"))
	got := do(t, p.local.URL(), req{method: http.MethodPut, path: "/rustfs/admin/v3/tier", body: p.tierJSON("COLD"),
		ak: "viewer", sk: "viewer-sk"})
	want(t, got, http.StatusForbidden, "AccessDenied", "Access Denied")
	if len(p.local.Tiers()) != 0 {
		t.Error("a denied add registered a tier")
	}
}

// The emulator's own SigV4 code reproduces AWS's published get-vanilla vector.
func TestOwnSignerMatchesPublishedVector(t *testing.T) {
	hr, _ := http.NewRequest(http.MethodGet, "https://example.amazonaws.com/", nil)
	hr.Host = "example.amazonaws.com"
	hr.Header.Set("X-Amz-Date", "20150830T123600Z")
	h := authHeader{accessKey: "AKIDEXAMPLE", date: "20150830", region: "us-east-1", service: "service",
		signedHeaders: []string{"host", "x-amz-date"}}
	const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	got := expectedSignature(hr, h, "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20150830T123600Z", empty)
	if want := "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"; got != want {
		t.Errorf("signature: want %s, got %s", want, got)
	}
}

func TestBodyNotMatchingSignedHashIsRefused(t *testing.T) {
	p := newPair(t, ModeRC)
	got := do(t, p.local.URL(), req{method: http.MethodPut, path: "/rustfs/admin/v3/tier", body: p.tierJSON("COLD"),
		payload: "0000000000000000000000000000000000000000000000000000000000000000"})
	want(t, got, http.StatusBadRequest, "InvalidRequest", "tier configuration body too large or failed to read")
}
