package rustfstest

import (
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

const invalidConfigMsg = "Unable to setup remote tier, check tier configuration"

// addTier is AddTier::call (docs/rustfs-wire.md §1.2) and TierConfigMgr::add (§3, §4): query,
// auth, body, JSON, nested name, force; then uppercase, reserved, exists,
// local backend validation; then, unless force, the remote in-use probe;
// in GA also the probe object. The remote is called without the lock.
func (e *Emulator) addTier(c *call) *s3Error {
	q, err := parseAdminQuery(c.r.URL.RawQuery)
	if err != nil {
		return err
	}
	if err := c.authorize("admin:SetTier"); err != nil {
		return err
	}
	if c.bodyBad {
		return invalidRequest("tier configuration body too large or failed to read")
	}
	t, err := parseTierConfig(c.body)
	if err != nil {
		return err
	}
	force, err := parseForce(q["force"])
	if err != nil {
		return err
	}
	if err := e.checkNewTier(t); err != nil {
		return err
	}
	if err := e.validateRemote(c, t, force); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.tiers[t.Name]; ok { // added concurrently while probing
		return tierErr("TierNameAlreadyExist", "tier name already exists")
	}
	e.tiers[t.Name] = &t
	return writeEmpty(c)
}

// checkNewTier runs the local checks of TierConfigMgr::add in order (docs/rustfs-wire.md §3, §4).
func (e *Emulator) checkNewTier(t TierRecord) *s3Error {
	if t.Name != strings.ToUpper(t.Name) { // docs/rustfs-wire.md §3.1, Unicode-aware
		return tierErr("TierNameNotUppercase", "tier name must be uppercase")
	}
	if strings.EqualFold(t.Name, "STANDARD") || strings.EqualFold(t.Name, "REDUCED_REDUNDANCY") { // docs/rustfs-wire.md §3.2
		return invalidRequest("Cannot use reserved tier name")
	}
	e.mu.Lock()
	_, exists := e.tiers[t.Name]
	e.mu.Unlock()
	if exists { // docs/rustfs-wire.md §3.3, exact case-sensitive key
		return tierErr("TierNameAlreadyExist", "tier name already exists")
	}
	if t.Name == "" { // docs/rustfs-wire.md §3: rejected late as "tier save failed"; the emulator rejects it here
		return tierErr("TierAddFailed", "tier save failed")
	}
	if !emulatedTypes[t.Type] {
		return tierErr("TierAddFailed", "tier add failed. Specified tier type is unsupported")
	}
	if detail := validateBackend(t); detail != "" {
		return e.invalidConfig(detail)
	}
	return nil
}

// invalidConfig is the ERR_TIER_INVALID_CONFIG answer: RC 500 TierAddFailed
// with the detail, GA 400 InvalidArgument without it (docs/rustfs-wire.md §4, §10).
func (e *Emulator) invalidConfig(detail string) *s3Error {
	if e.mode == ModeGA {
		return invalidArgument(invalidConfigMsg)
	}
	return tierErr("TierAddFailed", "tier add failed. "+invalidConfigMsg+": "+detail)
}

// validateBackend is new_warm_backend's local validation (docs/rustfs-wire.md §4). It returns
// the detail of the first problem, or "".
func validateBackend(t TierRecord) string {
	u, err := url.Parse(t.Endpoint)
	if err != nil || u.Host == "" {
		return "invalid endpoint: " + t.Endpoint
	}
	if t.Type != "s3" {
		switch {
		case t.AccessKey == "" || t.SecretKey == "":
			return "both access and secret keys are required"
		case t.Bucket == "":
			return "no bucket name was provided"
		}
		return ""
	}
	switch {
	case !outboundAllowed(u.Hostname()):
		return "tier endpoint is not allowed: " + u.Hostname()
	case (t.AccessKey == "") != (t.SecretKey == ""):
		return "both the access and secret keys are required"
	case t.Bucket == "":
		return "no bucket name was provided"
	case t.AccessKey == "":
		return "insufficient parameters for S3 backend authentication"
	}
	return ""
}

// outboundAllowed is validate_outbound_url for s3 tiers (docs/rustfs-wire.md §4): no localhost,
// and no loopback, private, link-local, unspecified or metadata IP literal.
// Host names are not resolved.
func outboundAllowed(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return false
	}
	ip, err := netip.ParseAddr(strings.Trim(h, "[]"))
	if err != nil {
		return true // a host name
	}
	ip = ip.Unmap()
	return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip == netip.MustParseAddr("169.254.169.254"))
}

// validateRemote runs the add-time remote checks (docs/rustfs-wire.md §4): unless force, the
// in-use probe; in GA also the probe object (docs/rustfs-wire.md §12.10),
// which runs with or without force, as MinIO's add-time probe does.
func (e *Emulator) validateRemote(c *call, t TierRecord, force bool) *s3Error {
	ctx, cancel := e.probeContext(c.r.Context())
	defer cancel()
	if !force {
		inUse, err := e.remoteInUse(ctx, t)
		if err != nil {
			return e.addProbeError(err)
		}
		if inUse {
			return e.backendInUseOnAdd()
		}
	}
	if e.mode != ModeGA {
		return nil
	}
	if err := e.remoteProbe(ctx, t); err != nil {
		return e.addProbeError(err)
	}
	return nil
}

// backendInUseOnAdd: RC 500 "TierNameBackendInUse!" (literal "!"), GA 409
// XMinioAdminTierBackendInUse (docs/rustfs-wire.md §1.2, §4, §10).
func (e *Emulator) backendInUseOnAdd() *s3Error {
	if e.mode == ModeGA {
		return errf(http.StatusConflict, "XMinioAdminTierBackendInUse", "Specified remote tier is already in use")
	}
	return tierErr("TierNameBackendInUse!", "tier backend is already in use")
}

// addProbeError maps a failed remote call (docs/rustfs-wire.md §4): a timeout looks like "in use";
// otherwise RC classifies the text ("connect", "authorization", "bucket", else
// "Tier Perm Err.<err>") and GA answers 400 InvalidArgument.
func (e *Emulator) addProbeError(err error) *s3Error {
	if errors.Is(err, errProbeTimeout) {
		return e.backendInUseOnAdd()
	}
	if e.mode == ModeGA {
		return invalidArgument(invalidConfigMsg)
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "connect"):
		return tierErr("TierConnectError", "tier connectivity check failed")
	case strings.Contains(msg, "authorization"):
		return tierErr("XRustFSAdminTierInvalidCredentials", "Invalid remote tier credentials")
	case strings.Contains(msg, "bucket"):
		return tierErr("TierAddFailed", "tier add failed. Remote tier bucket not found")
	}
	return tierErr("TierAddFailed", "tier add failed. Tier Perm Err."+msg)
}
