package rustfstest

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"time"
)

const (
	// maxSkew is s3s's presigned_url_max_skew_time_secs default (docs/rustfs-wire.md §7.1).
	maxSkew = 900 * time.Second
	// maxAdminBody is MAX_ADMIN_REQUEST_BODY_SIZE (docs/rustfs-wire.md §1.2 step 1).
	maxAdminBody = 1 << 20
	maxS3Body    = 64 << 20
)

// An identity is an authenticated caller.
type identity struct {
	accessKey string
	// root is the owner: the root credential, or a root-parented service
	// account without a session policy (docs/rustfs-wire.md §7.2, §16.7: has_root_access).
	root    bool
	actions []string // a user's actions; a service account's parent's
	// base is the merged canned policies of the user, or of a service
	// account's parent user (docs/rustfs-wire.md §20.5); nil when none.
	base *iamPolicy
	// A service account is allowed what its parent is allowed and, when it
	// has a session policy, what that policy allows (docs/rustfs-wire.md §16.7).
	parent     string
	parentRoot bool
	session    *iamPolicy
	refusal    *s3Error // set for a disabled or expired service account
}

// allowed reports whether the identity may perform a bucket-less action,
// such as an admin action.
func (id *identity) allowed(action string) bool { return id.allowedOn(accessRequest{action: action}) }

// allowedOn reports whether the identity may perform a.action on a.bucket
// and a.object. The root/owner is always allowed; a user needs a matching
// action, where a trailing "*" is a wildcard, so "admin:*" and "s3:*" work
// (docs/rustfs-wire.md §7.2), or a mapped canned policy that allows it (§20.5); a service
// account needs its parent's permission (always given for a root parent) and
// its session policy's (§16.7).
func (id *identity) allowedOn(a accessRequest) bool {
	if id.root {
		return true
	}
	if !id.parentRoot && !principalAllows(id.actions, id.base, a) {
		return false
	}
	return id.session == nil || id.session.allows(a)
}

func userAllows(actions []string, action string) bool {
	for _, a := range actions {
		if a == action || a == "*" || strings.HasSuffix(a, "*") && strings.HasPrefix(action, strings.TrimSuffix(a, "*")) {
			return true
		}
	}
	return false
}

// authorize answers 403 AccessDenied "Access Denied" unless allowed on the
// call's bucket and object (docs/rustfs-wire.md §7.2, §16.7).
func (c *call) authorize(action string) *s3Error {
	a := accessRequest{action: action, bucket: c.bucket, object: c.key, conditions: listConditions(action, c.r)}
	if c.who.allowedOn(a) {
		return nil
	}
	return errAccessDenied
}

// authenticate verifies SigV4 as s3s does before any handler runs (docs/rustfs-wire.md §7.1,
// §12.2), reads the body and checks it against x-amz-content-sha256.
func (e *Emulator) authenticate(c *call) (*identity, *s3Error) {
	r := c.r
	v := r.Header.Get("Authorization")
	if v == "" {
		return nil, errSignatureRequired // docs/rustfs-wire.md §7.1: no Authorization, no presign
	}
	h, err := parseAuthorization(v)
	if err != nil {
		return nil, errAuthMalformed
	}
	amzDate := r.Header.Get("X-Amz-Date")
	if amzDate == "" {
		return nil, errMissingDate
	}
	if h.service != "s3" && h.service != "sts" {
		return nil, errf(http.StatusNotImplemented, "NotImplemented",
			"unknown service '"+h.service+"' in credential scope; expected 's3' or 'sts'")
	}
	payload := r.Header.Get("X-Amz-Content-Sha256")
	if payload == "" && h.service == "s3" {
		return nil, errMissingSHA
	}
	if payload == unsignedPayload && r.ContentLength < 0 {
		return nil, errMissingLength
	}
	if err := e.checkTime(h, amzDate); err != nil {
		return nil, err
	}
	who, secret, ok := e.lookup(h.accessKey)
	if !ok {
		return nil, errInvalidAccessKey
	}
	if payload == "" {
		payload = unsignedPayload
	}
	want := expectedSignature(r, h, secret, amzDate, payload)
	if subtle.ConstantTimeCompare([]byte(want), []byte(h.signature)) != 1 {
		return nil, errSignatureMismatch
	}
	if who.refusal != nil {
		return nil, who.refusal
	}
	return who, e.readBody(c, payload)
}

// checkTime enforces that the scope date matches x-amz-date and the 15-minute
// clock skew (docs/rustfs-wire.md §7.1).
func (e *Emulator) checkTime(h authHeader, amzDate string) *s3Error {
	t, err := time.Parse(amzDateFormat, amzDate)
	if err != nil {
		return errAuthMalformed
	}
	if !strings.HasPrefix(amzDate, h.date) {
		return errSignatureMismatch
	}
	skew := e.now().Sub(t)
	if skew > maxSkew || skew < -maxSkew {
		return errTimeSkewed
	}
	return nil
}

// lookup finds the secret key of an access key (docs/rustfs-wire.md §7.1: unknown key → 403).
func (e *Emulator) lookup(accessKey string) (*identity, string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if accessKey == e.root.accessKey {
		return &identity{accessKey: accessKey, root: true}, e.root.secretKey, true
	}
	if a, ok := e.accounts[accessKey]; ok {
		return e.serviceAccountIdentity(a), a.secretKey, true
	}
	u, ok := e.users[accessKey]
	if !ok {
		return nil, "", false
	}
	return e.userIdentity(accessKey, u), u.secretKey, true
}

// readBody reads the body and verifies a signed payload hash. Admin
// handlers report a bad body with their own message (docs/rustfs-wire.md §1.2 step 1); S3
// answers 400 XAmzContentSHA256Mismatch.
func (e *Emulator) readBody(c *call, payload string) *s3Error {
	limit := int64(maxS3Body)
	admin := strings.HasPrefix(c.route, "tier.") || strings.HasPrefix(c.route, "sa.") || strings.HasPrefix(c.route, "iam.")
	if admin {
		limit = maxAdminBody
	}
	body, err := io.ReadAll(io.LimitReader(c.r.Body, limit+1))
	c.body = body
	bad := err != nil || int64(len(body)) > limit
	if !bad && payload != unsignedPayload {
		sum := sha256.Sum256(body)
		bad = hex.EncodeToString(sum[:]) != strings.ToLower(payload)
	}
	if !bad {
		return nil
	}
	if admin {
		c.bodyBad = true
		return nil
	}
	return errSHAMismatch
}
