package rustfstest

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strings"
	"time"
	"unicode"
)

// Service-account routes (docs/rustfs-wire.md §16;
// rustfs/src/admin/handlers/service_account.rs).

// Route names of the service-account routes.
const (
	RouteAddServiceAccount    = "sa.add"
	RouteUpdateServiceAccount = "sa.update"
	RouteServiceAccountInfo   = "sa.info"
	RouteListServiceAccounts  = "sa.list"
	RouteDeleteServiceAccount = "sa.delete"
)

// The admin actions of the routes (docs/rustfs-wire.md §7.2, §16.1).
const (
	actionCreateSvc = "admin:CreateServiceAccount"
	actionUpdateSvc = "admin:UpdateServiceAccount"
	actionListSvc   = "admin:ListServiceAccounts"
	actionRemoveSvc = "admin:RemoveServiceAccount"
)

// The service-account routes deny with a lower-case message (docs/rustfs-wire.md §16.1).
var errSvcDenied = errf(http.StatusForbidden, "AccessDenied", "access denied")

// emptyExplicitPolicy replaces a session policy that has a Version or ID but
// no statements (EMPTY_EXPLICIT_SERVICE_ACCOUNT_POLICY, docs/rustfs-wire.md §16.2 step 5).
const emptyExplicitPolicy = `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":["s3:*"],"Resource":["arn:aws:s3:::*"]}]}`

// serviceAccountIdentity builds the identity of a service account's
// credential (auth.rs › has_root_access; sys.rs › prepare_service_account_auth).
// Callers hold e.mu.
func (e *Emulator) serviceAccountIdentity(a *serviceAccount) *identity {
	id := &identity{accessKey: a.accessKey, parent: a.parent, parentRoot: e.isRootParented(a), session: a.policy}
	id.root = id.parentRoot && a.policy == nil
	if p := e.users[a.parent]; !id.parentRoot && p.status != "off" { // a disabled parent allows nothing (docs/rustfs-wire.md §20.6)
		id.actions, id.base = p.actions, e.userPolicy(a.parent)
	}
	switch {
	case a.status == "off":
		id.refusal = invalidRequest("ErrAccessKeyDisabled")
	case !a.expiration.IsZero() && e.now().After(a.expiration):
		id.refusal = invalidRequest("check key failed")
	}
	return id
}

// requestUserName is the caller's parent, or the caller when it has none
// (service_account.rs › request_user_name).
func (id *identity) requestUserName() string {
	if id.parent != "" {
		return id.parent
	}
	return id.accessKey
}

// adminBody checks the body read and the prefix of a route that reads a
// body (utils.rs › read_compatible_admin_body): on /minio the body would be
// decrypted, which the emulator does not model, so a plain body fails there
// as it does in RustFS.
func (c *call) adminBody() *s3Error {
	if c.bodyBad {
		return invalidRequest("failed to read request body: too large or not matching x-amz-content-sha256")
	}
	if c.compat {
		return invalidRequest("failed to decrypt MinIO admin payload: the emulator does not model encrypted admin bodies (docs/rustfs-wire.md §7.4)")
	}
	return nil
}

// addServiceAccount is AddServiceAccount::call (docs/rustfs-wire.md §16.2), in its order.
func (e *Emulator) addServiceAccount(c *call) *s3Error {
	if err := c.adminBody(); err != nil {
		return err
	}
	r, err := decodeSvcRequest(c.body, addKeys)
	if err != nil {
		return err
	}
	if strings.ContainsFunc(r.accessKey, unicode.IsSpace) {
		return invalidRequest("access key has spaces")
	}
	if err := r.validate(e.now()); err != nil {
		return err
	}
	policy, err := newSessionPolicy(r.policy)
	if err != nil {
		return err
	}
	if r.accessKey == e.root.accessKey {
		return invalidArgument("can't create user with system access key")
	}
	if !c.who.allowed(actionCreateSvc) {
		return errSvcDenied
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	parent, err := e.svcParent(c.who, r.targetUser)
	if err != nil {
		return err
	}
	a, err := e.newServiceAccount(parent, r, policy)
	if err != nil {
		return err
	}
	e.accounts[a.accessKey] = a
	type credentials struct {
		AccessKey  string `json:"accessKey"`
		SecretKey  string `json:"secretKey"`
		Expiration string `json:"expiration,omitempty"`
	}
	out := credentials{AccessKey: a.accessKey, SecretKey: a.secretKey}
	if !a.expiration.IsZero() {
		out.Expiration = a.expiration.UTC().Format(time.RFC3339)
	}
	return writeJSON(c, struct {
		Credentials credentials `json:"credentials"`
	}{out})
}

// svcParent resolves the parent of a new account (docs/rustfs-wire.md §16.2 step 9): targetUser
// must exist; a caller that is not the owner may name only itself or its
// parent; a derived caller's account goes under its parent. Callers hold e.mu.
func (e *Emulator) svcParent(who *identity, targetUser *string) (string, *s3Error) {
	target := who.accessKey
	if targetUser != nil {
		target = *targetUser
	}
	if _, user := e.users[target]; target != who.accessKey && !user && target != e.root.accessKey {
		return "", invalidRequest("target user not exist")
	}
	own := target == who.accessKey || target == who.requestUserName()
	if !who.root && !own {
		return "", errf(http.StatusForbidden, "AccessDenied", "service account parent is outside requester scope")
	}
	if own && who.parent != "" {
		target = who.parent
	}
	return target, nil
}

// newSessionPolicy is parse_new_service_account_policy (docs/rustfs-wire.md §16.2 step 5): a
// policy with statements and no Version gets one, a policy with a Version or
// ID and no statements becomes an explicit deny-all, and an empty policy ({})
// is no policy at all.
func newSessionPolicy(v *jsonNode) (*iamPolicy, *s3Error) {
	if v == nil {
		return nil, nil
	}
	p, err := parsePolicy(*v)
	if err != nil {
		return nil, err
	}
	switch {
	case len(p.statements) == 0 && (p.id != "" || p.version != ""):
		n, _ := parseJSONTree([]byte(emptyExplicitPolicy))
		deny, _ := parsePolicy(n)
		deny.id = p.id
		return deny, nil
	case len(p.statements) == 0:
		return nil, nil
	case p.version == "":
		p.version = policyVersion
	}
	return p, nil
}

// newServiceAccount is IamSys::new_service_account (docs/rustfs-wire.md §16.2 step 10). Callers
// hold e.mu.
func (e *Emulator) newServiceAccount(parent string, r svcRequest, policy *iamPolicy) (*serviceAccount, *s3Error) {
	ak, sk := r.accessKey, r.secretKey
	switch {
	case ak != "" && sk == "":
		return nil, errf(http.StatusInternalServerError, "InternalError", "create service account failed, e: NoSecretKeyWithAccessKey")
	case sk != "" && ak == "":
		return nil, errf(http.StatusInternalServerError, "InternalError", "create service account failed, e: NoAccessKeyWithSecretKey")
	case parent == ak:
		return nil, invalidArgument("access key is already in use")
	case policy != nil && len(policy.render(false)) > maxSessionPolicy:
		return nil, errf(http.StatusInternalServerError, "InternalError", "create service account failed, e: PolicyTooLarge")
	case ak == "":
		ak, sk = generatedKeys()
	}
	switch {
	case len(ak) < 3 || len(ak) > 128:
		return nil, invalidArgument("invalid access key length")
	case len(sk) < 8 || len(sk) > 40:
		return nil, invalidArgument("invalid secret key length")
	case e.keyInUse(ak):
		return nil, invalidArgument("access key is already in use")
	}
	a := &serviceAccount{accessKey: ak, secretKey: sk, parent: parent, status: "on", policy: policy,
		name: r.name, description: r.description}
	if a.description == nil {
		a.description = r.comment
	}
	if r.expiration != nil && r.expiration.Unix() != 0 {
		a.expiration = *r.expiration
	}
	return a, nil
}

// generatedKeys are RustFS's own: 20 characters of 0-9 A-Z and 40 of
// base64url (credentials.rs › gen_access_key, gen_secret_key).
func generatedKeys() (string, string) {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := make([]byte, 20+30)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	ak := make([]byte, 20)
	for i := range ak {
		ak[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(ak), base64.RawURLEncoding.EncodeToString(b[20:])
}
