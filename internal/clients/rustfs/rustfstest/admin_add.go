package rustfstest

import (
	"context"
	"errors"
	"strings"
	"time"
)

// addTier is AddTier::call (docs/rustfs-wire.md §1.2) and TierConfigMgr::add (rc, §4.1) or
// add_with_deadline (GA, §4.2): query, auth, body, JSON, nested name,
// force; then uppercase, reserved, exists; then the configuration checks and
// the remote. rc validates the backend and, unless force, checks that the
// prefix is empty; GA first probes the remote with a probe object, with or
// without force, and only then checks the prefix. The remote is called
// without the lock.
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
	done, ok := e.beginMutation(t.Name)
	if !ok {
		return e.addAnswer(errReplaced)
	}
	defer done()
	if terr := e.prepareAdd(&t); terr != nil {
		return e.addAnswer(terr)
	}
	if terr := e.validateRemote(c.r.Context(), t, force); terr != nil {
		return e.addAnswer(terr)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.tiers[t.Name]; ok { // added concurrently while probing
		return tierErr("TierNameAlreadyExist", "tier name already exists")
	}
	e.tiers[t.Name] = &t
	return writeEmpty(c)
}

// checkNewTier runs the name checks of TierConfigMgr::add in order (docs/rustfs-wire.md §3).
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
	if t.Name == "" { // docs/rustfs-wire.md §3.4: rejected late as "tier save failed"; the emulator rejects it here
		return tierErr("TierAddFailed", "tier save failed")
	}
	if _, ok := typeKeys[t.Type]; !ok {
		return tierErr("TierAddFailed", "tier add failed. Specified tier type is unsupported")
	}
	return nil
}

// beginMutation fences a tier name for one add or edit. A second mutation
// of the same tier meanwhile is refused as RustFS refuses a tier that is
// already being replaced (docs/rustfs-wire.md §9, §13.5).
func (e *Emulator) beginMutation(name string) (func(), bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.mutating[name] {
		return nil, false
	}
	e.mutating[name] = true
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		delete(e.mutating, name)
	}, true
}

// prepareAdd runs the configuration checks before any remote call: Wasabi's
// endpoint (both releases), GA's credential validation, then the backend
// constructor's local checks (docs/rustfs-wire.md §4.1 steps 2-3, §4.2 steps 2-4).
func (e *Emulator) prepareAdd(t *TierRecord) *tierError {
	if t.Type == "wasabi" {
		if err := normalizeWasabi(t); err != nil {
			return err
		}
	}
	if e.mode == ModeGA {
		if err := validateCredentials(*t); err != nil {
			return err
		}
	}
	return e.checkLocal(*t)
}

// validateRemote runs the add-time remote calls under the validation
// deadline (docs/rustfs-wire.md §4.4): GA's probe object with a 1 s cleanup window, or rc's
// validate(); then, unless force, the in-use check (§18.3).
func (e *Emulator) validateRemote(parent context.Context, t TierRecord, force bool) *tierError {
	ctx, cancel := e.probeContext(parent)
	defer cancel()
	b := e.backendFor(t)
	if e.mode == ModeGA {
		if err := e.probeGA(ctx, b, time.Second); err != nil {
			return err
		}
	} else if err := b.validate(ctx); err != nil {
		if errors.Is(err, errProbeTimeout) {
			return errTimedOut
		}
		return invalidConfig(invalidConfigMsg) // rc new_warm_backend drops validate()'s error (docs/rustfs-wire.md §4.1)
	}
	if force {
		return nil
	}
	inUse, err := b.inUse(ctx)
	switch {
	case errors.Is(err, errProbeTimeout):
		return &tierError{errKindInUse, "Timed out checking whether the remote tier is in use"}
	case err != nil:
		return inUseProbeError(err)
	case inUse:
		return &tierError{errKindInUse, "Specified remote tier is already in use"}
	}
	return nil
}

// inUseProbeError classifies a failed in-use listing by its text, as
// TierConfigMgr::add does (docs/rustfs-wire.md §4.3): "connect", "authorization", "bucket",
// else "Tier Perm Err.<err>".
func inUseProbeError(err error) *tierError {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "connect"):
		return &tierError{errKindConnect, "Tier Connect Err"}
	case strings.Contains(msg, "authorization"):
		return &tierError{errKindInvalidCreds, "Invalid remote tier credentials"}
	case strings.Contains(msg, "bucket"):
		return permErr("Remote tier bucket not found")
	}
	return permErr(permErrMsg + "." + msg)
}

// probeContext bounds a remote validation like TIER_REMOTE_VALIDATION_TIMEOUT.
func (e *Emulator) probeContext(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, e.probeWait)
}
