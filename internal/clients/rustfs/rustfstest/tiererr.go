package rustfstest

import "net/http"

// A tierErrKind is the internal code of a TierConfigMgr error
// (docs/rustfs-wire.md §0.1): the handlers map it to the wire per operation
// and release.
type tierErrKind int

const (
	errKindInvalidConfig   tierErrKind = iota // XRustFSAdminTierInvalidConfig
	errKindMissingCreds                       // XRustFSAdminTierMissingCredentials
	errKindPerm                               // TierPermErr and everything unmapped
	errKindInUse                              // XRustFSAdminTierBackendInUse
	errKindConnect                            // TierConnectErr
	errKindInvalidCreds                       // XRustFSAdminTierInvalidCredentials
	errKindAlreadyReplaced                    // InvalidConfig, but retryable (docs/rustfs-wire.md §9, §13.5)
)

// A tierError is a failed manager step with its internal message.
type tierError struct {
	kind tierErrKind
	msg  string
}

// The internal messages the emulator reproduces (docs/rustfs-wire.md §1.2, §4.3, §4.4).
const (
	invalidConfigMsg  = "Unable to setup remote tier, check tier configuration"
	missingCredsMsg   = "Specified remote credentials are empty"
	permErrMsg        = "Tier Perm Err"
	uncertainMsg      = "Remote tier probe outcome is uncertain; cleanup is incomplete"
	validationTimeout = "Timed out validating the remote tier mutation"
	alreadyReplaced   = "Remote tier configuration is already being replaced"
)

func invalidConfig(msg string) *tierError { return &tierError{errKindInvalidConfig, msg} }
func permErr(msg string) *tierError       { return &tierError{errKindPerm, msg} }

var (
	errMissingCreds = &tierError{errKindMissingCreds, missingCredsMsg}
	errUncertain    = &tierError{errKindPerm, uncertainMsg}
	errTimedOut     = &tierError{errKindInUse, validationTimeout}
	errReplaced     = &tierError{errKindAlreadyReplaced, alreadyReplaced}
)

// addAnswer maps an add failure (AddTier::call, docs/rustfs-wire.md §1.2):
// GA sends the invalid-config class as 400 InvalidArgument with the message
// and the in-use class as 409; rc sends everything as 500 with a short code.
func (e *Emulator) addAnswer(err *tierError) *s3Error {
	ga := e.mode == ModeGA
	switch err.kind {
	case errKindInvalidConfig, errKindAlreadyReplaced:
		if ga {
			return invalidArgument(err.msg)
		}
	case errKindInUse:
		return e.backendInUseOnAdd()
	case errKindConnect:
		return tierErr("TierConnectError", "tier connectivity check failed")
	case errKindInvalidCreds:
		return tierErr("XRustFSAdminTierInvalidCredentials", "Invalid remote tier credentials")
	}
	return tierErr("TierAddFailed", "tier add failed. "+err.msg)
}

// backendInUseOnAdd: RC 500 "TierNameBackendInUse!" (literal "!"), GA 409
// XMinioAdminTierBackendInUse, message canonical (docs/rustfs-wire.md §1.2, §13.4).
func (e *Emulator) backendInUseOnAdd() *s3Error {
	if e.mode == ModeGA {
		return errf(http.StatusConflict, "XMinioAdminTierBackendInUse", "Specified remote tier is already in use")
	}
	return tierErr("TierNameBackendInUse!", "tier backend is already in use")
}

// editAnswer maps an edit failure (EditTier::call, docs/rustfs-wire.md §1.3): no 409 or 400
// in either release.
func editAnswer(err *tierError) *s3Error {
	if err.kind == errKindMissingCreds {
		return tierErr("TierMissingCredentials", "tier credentials are required")
	}
	return tierErr("TierEditFailed", "tier edit failed. "+err.msg)
}

// verifyAnswer maps a verify failure (docs/rustfs-wire.md §1.5).
func verifyAnswer(err *tierError) *s3Error {
	return tierErr("TierVerificationFailed", "tier verification failed. "+err.msg)
}
