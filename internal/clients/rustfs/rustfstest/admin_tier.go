package rustfstest

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
)

// listTiers is ListTiers::call (docs/rustfs-wire.md §1.1, §12.5): any query must carry bucket=
// (ignored); the answer is a JSON array of the stored configs with secrets
// "REDACTED", in arbitrary order (§9: a HashMap), "[]" when empty.
func (e *Emulator) listTiers(c *call) *s3Error {
	if c.r.URL.RawQuery != "" || c.r.URL.ForceQuery {
		if _, ok := c.r.URL.Query()["bucket"]; !ok {
			return invalidArgument("get query failed")
		}
	}
	if err := c.authorize("admin:ListTier"); err != nil {
		return err
	}
	e.mu.Lock()
	out := make([]json.RawMessage, 0, len(e.tiers))
	for _, t := range e.tiers {
		out = append(out, e.listEntry(*t))
	}
	e.mu.Unlock()
	rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return writeJSON(c, out)
}

// removeTier is RemoveTier::call and TierConfigMgr::remove (docs/rustfs-wire.md §1.4, §6, §12.7).
func (e *Emulator) removeTier(c *call) *s3Error {
	q, err := parseAdminQuery(c.r.URL.RawQuery)
	if err != nil {
		return err
	}
	if err := c.authorize("admin:SetTier"); err != nil {
		return err
	}
	force, err := parseForce(q["force"])
	if err != nil {
		return err
	}
	t, ok := e.Tier(c.seg)
	if !ok { // docs/rustfs-wire.md §6: an unknown tier is success
		return writeEmpty(c)
	}
	if err := e.removable(c, t, force); err != nil {
		return err
	}
	e.mu.Lock()
	delete(e.tiers, t.Name)
	e.mu.Unlock()
	return writeEmpty(c)
}

// removable runs the remove checks: unless force, the remote emptiness probe;
// always, the reference proof (docs/rustfs-wire.md §6).
func (e *Emulator) removable(c *call, t TierRecord, force bool) *s3Error {
	if !force {
		ctx, cancel := e.probeContext(c.r.Context())
		inUse, err := e.backendFor(t).inUse(ctx)
		cancel()
		switch {
		case err != nil:
			return tierErr("TierRemoveFailed", "tier remove failed. Tier Perm Err."+err.Error())
		case inUse && e.mode == ModeGA: // docs/rustfs-wire.md §6, §10 #6988
			return errf(http.StatusBadRequest, "XMinioAdminTierBackendNotEmpty", "Specified remote backend is not empty")
		case inUse:
			return tierErr("TierNameBackendInUse", "tier backend is not empty")
		}
	}
	if e.referenced(t.Name, force) {
		return e.referencedError()
	}
	return nil
}

// referenced is the authoritative reference proof (docs/rustfs-wire.md §6): an object version
// transitioned to the tier, with or without force; in GA also, without
// force only, a lifecycle rule naming it (#6807, #6835; §13.3).
func (e *Emulator) referenced(name string, force bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, b := range e.buckets {
		for _, vs := range b.objects {
			for _, o := range vs {
				if o.transitioned == name {
					return true
				}
			}
		}
		if e.mode == ModeGA && !force && b.lifecycle.namesTier(name) {
			return true
		}
	}
	return false
}

// referencedError: RC 500 TierNameBackendInUse (detail dropped), GA 409.
func (e *Emulator) referencedError() *s3Error {
	if e.mode == ModeGA {
		return errf(http.StatusConflict, "XMinioAdminTierBackendInUse", "Specified remote tier is already in use")
	}
	return tierErr("TierNameBackendInUse", "tier backend is not empty")
}

// verifyTier is VerifyTier::call (docs/rustfs-wire.md §1.5, §12.8, §13.14): the name is the
// decoded, trimmed path segment, else ?tier=; then the probe object: rc's
// PUT/GET/DELETE of "probeobject", GA's full probe with a cleanup window as
// long as the deadline.
func (e *Emulator) verifyTier(c *call) *s3Error {
	if err := c.authorize("admin:ListTier"); err != nil {
		return err
	}
	name, err := url.PathUnescape(c.seg)
	if err != nil {
		return invalidArgument("invalid tier path parameter")
	}
	if name = strings.TrimSpace(name); name == "" {
		q, qerr := parseAdminQuery(c.r.URL.RawQuery)
		if qerr != nil {
			return invalidArgument("get query failed")
		}
		if name = strings.TrimSpace(q["tier"]); name == "" {
			return invalidArgument("tier is required")
		}
	}
	t, ok := e.Tier(name)
	if !ok {
		return tierErr("TierNotFound", "tier not found!")
	}
	ctx, cancel := e.probeContext(c.r.Context())
	defer cancel()
	b := e.backendFor(t)
	var terr *tierError
	if e.mode == ModeGA {
		terr = e.probeGA(ctx, b, e.probeWait)
	} else {
		terr = e.probeRC(ctx, b)
	}
	if terr != nil {
		return verifyAnswer(terr)
	}
	return writeEmpty(c)
}
