package rustfs

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
)

// Error codes RustFS and MinIO send for tier operations, across 1.0.0-rc
// (HTTP 500 with a short code) and 1.0.x GA (409/400 XMinioAdmin…); see
// docs/rustfs-wire.md §1.2-§1.5, §10 and §11.
var (
	codesTierNotFound = codes("TierNotFound", "XMinioAdminTierNotFound", "XRustFSAdminTierNotFound")
	codesTierExists   = codes("TierNameAlreadyExist", "XMinioAdminTierAlreadyExists", "XRustFSAdminTierAlreadyExists")
	codesBackendInUse = codes("TierNameBackendInUse!", "TierNameBackendInUse", "XMinioAdminTierBackendInUse",
		"XMinioAdminTierBackendNotEmpty", "XRustFSAdminTierBackendInUse", "XRustFSAdminTierBackendNotEmpty")
	codesInvalidName   = codes("TierNameNotUppercase", "XMinioAdminTierNameNotUpperCase", "XRustFSAdminTierNameNotUpperCase")
	codesInvalidConfig = codes("TierConnectError", "XRustFSAdminTierInvalidCredentials", "XRustFSAdminTierInvalidConfig",
		"XMinioAdminTierInvalidConfig", "XMinioAdminTierInvalidCredentials", "TierMissingCredentials",
		"XMinioAdminTierMissingCredentials", "XRustFSAdminTierBucketNotFound", "XMinioAdminTierBucketNotFound")
	codesMissingCreds = codes("TierMissingCredentials", "XMinioAdminTierMissingCredentials", "XRustFSAdminTierMissingCredentials")
	codesAccessDenied = codes("AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "RequestTimeTooSkewed")
	codesTransient    = codes("SlowDown", "ServiceUnavailable", "RequestTimeout", "InternalError", "XMinioServerNotInitialized")
	// codesTier are the failure codes of the tier handlers; an unknown 5xx
	// outside this set is treated as transient.
	codesTier = codes("TierAddFailed", "TierEditFailed", "TierRemoveFailed", "TierVerificationFailed",
		"TierClearFailed", "TierMissingCredentials", "TierConnectError")
)

func codes(c ...string) map[string]bool {
	m := make(map[string]bool, len(c))
	for _, s := range c {
		m[s] = true
	}
	return m
}

func apiError(err error) (*APIError, bool) {
	var e *APIError
	ok := errors.As(err, &e)
	return e, ok
}

// IsTierNotFound reports whether err says the named tier does not exist.
func IsTierNotFound(err error) bool {
	e, ok := apiError(err)
	return ok && (codesTierNotFound[e.Code] || e.Code == "" && e.Status == http.StatusNotFound)
}

// IsTierExists reports whether err says a tier with that name already exists.
func IsTierExists(err error) bool {
	e, ok := apiError(err)
	return ok && codesTierExists[e.Code]
}

// IsBackendInUse reports whether err says the remote prefix is not empty or
// objects still reference the tier (docs/rustfs-wire.md §4, §6, §10).
func IsBackendInUse(err error) bool {
	e, ok := apiError(err)
	return ok && codesBackendInUse[e.Code]
}

// IsInvalidTierName reports whether err rejects the tier name's form (not
// upper case).
func IsInvalidTierName(err error) bool {
	e, ok := apiError(err)
	return ok && codesInvalidName[e.Code]
}

// IsReservedTierName reports whether err rejects a reserved tier name such as
// STANDARD (docs/rustfs-wire.md §3: 400 InvalidRequest "Cannot use reserved tier name").
func IsReservedTierName(err error) bool {
	e, ok := apiError(err)
	if !ok {
		return false
	}
	return e.Code == "XRustFSAdminTierReserved" ||
		e.Code == "InvalidRequest" && strings.Contains(e.Message, "reserved tier name")
}

// IsInvalidConfig reports whether err says the remote tier cannot be used as
// configured: unreachable, wrong keys, missing bucket or a refused endpoint
// (docs/rustfs-wire.md §4.3: rc 500 TierAddFailed "…Unable to setup remote tier…" or
// "…Tier Perm Err…"; GA 400 InvalidArgument "Unable to setup remote tier…" or
// one of its credential checks, or a probe that failed, 500 "…Tier Perm
// Err" or "…probe outcome is uncertain…"). An rc answer that only says the
// remote could not be reached is transient instead (isRemoteHiccup).
func IsInvalidConfig(err error) bool {
	e, ok := apiError(err)
	if !ok || isTransientMessage(e.Message) || isRemoteHiccup(e) {
		return false
	}
	if codesInvalidConfig[e.Code] {
		return true
	}
	switch e.Code {
	case "TierAddFailed", "TierEditFailed", "TierVerificationFailed", "TierRemoveFailed":
		return containsAny(e.Message, "Tier Perm Err", "tier type is unsupported", "probe outcome is uncertain",
			"remote credentials are empty") || containsAny(e.Message, configRefusals...)
	case "InvalidArgument":
		return containsAny(e.Message, configRefusals...)
	}
	return false
}

// configRefusals are the texts of RustFS's refusals of a tier's
// configuration (XRustFSAdminTierInvalidConfig that is not a passing
// state, docs/rustfs-wire.md §2, §5, §13.5).
var configRefusals = []string{"Unable to setup remote tier", "GCS credentials must", "cannot be used with",
	"do not support storageClass or spAuth", "AWS role", "Wasabi endpoint must be", "invalid Wasabi region"}

func containsAny(m string, subs ...string) bool {
	for _, s := range subs {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// isRemoteHiccup reports an rc add or edit that failed only because RustFS
// could not reach the remote, which may pass by itself: the bare "Unable to
// setup remote tier, check tier configuration" (rc's new_warm_backend drops
// the error of validate(), Wasabi's versioning check of the remote) and an
// in-use listing that could not connect ("Tier Perm Err.client error
// (Connect)", docs/rustfs-wire.md §4.1, §4.3). The same text with a detail
// after "configuration: " is the backend refusing the settings themselves,
// before any remote call, and is not passing.
func isRemoteHiccup(e *APIError) bool {
	if e.Status < 500 || (e.Code != "TierAddFailed" && e.Code != "TierEditFailed") {
		return false
	}
	m := strings.TrimSpace(e.Message)
	return strings.HasSuffix(m, "failed. Unable to setup remote tier, check tier configuration") ||
		strings.Contains(m, "Tier Perm Err.client error (Connect)")
}

// IsAccessDenied reports whether the endpoint refused the credentials or the
// identity lacks permission (docs/rustfs-wire.md §7).
func IsAccessDenied(err error) bool {
	e, ok := apiError(err)
	return ok && (codesAccessDenied[e.Code] || e.Code == "" && e.Status == http.StatusForbidden)
}

// IsInfoRefused reports whether the admin info call was refused rather than
// failed (docs/rustfs-wire.md §15.5): 403 AccessDenied (the credential lacks
// admin:ServerInfo), 404 (the path is not an admin route on that server) or
// 501 (no such admin route). An unknown key or a bad signature is not a
// refusal: the credential proves nothing.
func IsInfoRefused(err error) bool {
	e, ok := apiError(err)
	if !ok {
		return false
	}
	switch e.Status {
	case http.StatusForbidden:
		return e.Code == "AccessDenied" || e.Code == ""
	case http.StatusNotFound, http.StatusNotImplemented:
		return true
	}
	return false
}

// IsNoSuchBucket reports whether err says the bucket does not exist.
func IsNoSuchBucket(err error) bool {
	e, ok := apiError(err)
	return ok && (e.Code == "NoSuchBucket" || e.Code == "" && e.Status == http.StatusNotFound)
}

// IsBucketExists reports whether err says a bucket of that name exists and
// belongs to someone else (409 BucketAlreadyExists). The caller's own
// bucket is not an error: CreateBucket returns nil for it.
func IsBucketExists(err error) bool {
	e, ok := apiError(err)
	return ok && e.Code == "BucketAlreadyExists"
}

// IsNoSuchLifecycle reports whether err says the bucket has no lifecycle
// configuration (docs/rustfs-wire.md §8.1).
func IsNoSuchLifecycle(err error) bool {
	e, ok := apiError(err)
	return ok && e.Code == "NoSuchLifecycleConfiguration"
}

// IsInvalidTier reports whether a lifecycle PUT was refused because a
// storage class is not a registered tier (docs/rustfs-wire.md §8.2 step 6: 400
// InvalidArgument "invalid tier.").
func IsInvalidTier(err error) bool {
	e, ok := apiError(err)
	if !ok {
		return false
	}
	return e.Code == "InvalidStorageClass" || e.Code == "InvalidArgument" && strings.Contains(e.Message, "invalid tier")
}

// IsTransient reports whether retrying later may succeed: timeouts,
// connection failures, 429, 502-504, the passing states of a tier mutation
// (transientMessages) under any code, rc's answers that RustFS could not
// reach the remote (isRemoteHiccup), and 5xx answers whose code is not a
// known tier code. A redirect and an oversized answer are not transient:
// they do not change by themselves.
func IsTransient(err error) bool {
	if err == nil {
		return false
	}
	e, ok := apiError(err)
	if !ok {
		return isNetworkError(err)
	}
	switch {
	case isTransientMessage(e.Message), codesTransient[e.Code], isRemoteHiccup(e):
		return true
	case e.Status == http.StatusTooManyRequests, e.Status == http.StatusServiceUnavailable,
		e.Status == http.StatusBadGateway, e.Status == http.StatusGatewayTimeout:
		return true
	case e.Status >= 500:
		return !codesTier[e.Code] && !codesTierNotFound[e.Code] && !codesTierExists[e.Code] &&
			!codesBackendInUse[e.Code] && !codesInvalidName[e.Code] && !codesInvalidConfig[e.Code]
	}
	return false
}

// transientMessages are the passing states of a tier mutation, in rc's 500
// TierAddFailed/TierEditFailed and GA's 400 InvalidArgument alike
// (docs/rustfs-wire.md §1.2, §1.3, §4.4, §13.5): a concurrent or pending
// replacement, a recovery that changed, a peer prepare/commit/replay or
// reference proof that failed, a timeout (a GA edit reports its probe
// timing out as 500 TierEditFailed), a failed config reload (lock timeout)
// and a failed config save (a storage hiccup).
var transientMessages = []string{
	"being replaced", "mutation recovery", "mutation prepare failed", "mutation commit failed",
	"committed replay failed", "reference proof failed", "Timed out", "tier reload failed", "tier save failed",
}

// isTransientMessage matches the retryable tier mutation answers.
func isTransientMessage(m string) bool {
	for _, s := range transientMessages {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// IsAmbiguous reports an answer that may mean a problem with the input or
// a passing state, which RustFS does not tell apart: "backend in use" on
// add, which rc (500 TierNameBackendInUse!) and GA (409
// XMinioAdminTierBackendInUse) both also send when checking the remote
// timed out, transitions to the tier are active or a recovery must finish
// (docs/rustfs-wire.md §4.4, §13.4); and a probe "outcome is uncertain",
// which is wrong keys or a remote that did not answer (§4.3). Such an
// answer is reported, and the write retried once per poll interval rather
// than blocked until an input changes. GA's 400
// XMinioAdminTierBackendNotEmpty is not ambiguous.
func IsAmbiguous(err error) bool {
	e, ok := apiError(err)
	if !ok {
		return false
	}
	inUse := codesBackendInUse[e.Code] && (e.Status >= 500 || e.Status == http.StatusConflict)
	return inUse || strings.Contains(e.Message, "probe outcome is uncertain")
}

// IsProbeUncertain reports GA's answer that the probe object an add or
// edit wrote could not be found again and removed ("Remote tier probe
// outcome is uncertain; cleanup is incomplete", docs/rustfs-wire.md §4.3):
// wrong keys, a remote that did not answer, or a backend that cannot list
// its probe object at all.
func IsProbeUncertain(err error) bool {
	e, ok := apiError(err)
	return ok && strings.Contains(e.Message, "probe outcome is uncertain")
}

func isNetworkError(err error) bool {
	var ne net.Error
	var ue *url.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE):
		return true
	case errors.As(err, &ne), errors.As(err, &ue):
		return true
	}
	return false
}
