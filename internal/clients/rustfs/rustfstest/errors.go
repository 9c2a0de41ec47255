package rustfstest

import (
	"encoding/xml"
	"net/http"
)

// An s3Error is an error answer. RustFS serializes every handler error as
// S3 XML <Error><Code/><Message/><RequestId/></Error> (docs/rustfs-wire.md §0.1). Tier codes are
// custom codes with no status mapping and therefore go out as HTTP 500.
type s3Error struct {
	status  int
	code    string
	message string
}

func errf(status int, code, message string) *s3Error {
	return &s3Error{status: status, code: code, message: message}
}

// tierErr is a custom tier code: HTTP 500 in every mode (docs/rustfs-wire.md §0.1, §12.3).
func tierErr(code, message string) *s3Error {
	return errf(http.StatusInternalServerError, code, message)
}

func invalidRequest(message string) *s3Error {
	return errf(http.StatusBadRequest, "InvalidRequest", message)
}
func invalidArgument(message string) *s3Error {
	return errf(http.StatusBadRequest, "InvalidArgument", message)
}

// Standard S3 answers (docs/rustfs-wire.md §0.1 status map, §7.1 messages).
var (
	errSignatureRequired = errf(http.StatusForbidden, "AccessDenied", "Signature is required")
	errAccessDenied      = errf(http.StatusForbidden, "AccessDenied", "Access Denied")
	errInvalidAccessKey  = errf(http.StatusForbidden, "InvalidAccessKeyId",
		"The Access Key Id you provided does not exist in our records.")
	errSignatureMismatch = errf(http.StatusForbidden, "SignatureDoesNotMatch",
		"The request signature we calculated does not match the signature you provided. Check your key and signing method.")
	errTimeSkewed = errf(http.StatusForbidden, "RequestTimeTooSkewed",
		"The difference between the request time and the server's time is too large.")
	errMissingDate     = invalidRequest("missing header: x-amz-date")
	errMissingSHA      = invalidRequest("missing header: x-amz-content-sha256")
	errMissingLength   = errf(http.StatusLengthRequired, "MissingContentLength", "You must provide the Content-Length HTTP header.")
	errAuthMalformed   = errf(http.StatusBadRequest, "AuthorizationHeaderMalformed", "The authorization header is malformed.")
	errSHAMismatch     = errf(http.StatusBadRequest, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.")
	errNotImplemented  = errf(http.StatusNotImplemented, "NotImplemented", "A header you provided implies functionality that is not implemented.")
	errNoSuchBucket    = errf(http.StatusNotFound, "NoSuchBucket", "The specified bucket does not exist")
	errNoSuchKey       = errf(http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
	errNoSuchVersion   = errf(http.StatusNotFound, "NoSuchVersion", "The specified version does not exist.")
	errNoSuchLifecycle = errf(http.StatusNotFound, "NoSuchLifecycleConfiguration", "The lifecycle configuration does not exist")
	errNoObjectLock    = errf(http.StatusNotFound, "ObjectLockConfigurationNotFoundError",
		"Object Lock configuration does not exist for this bucket")
	errMalformedXML = errf(http.StatusBadRequest, "MalformedXML",
		"The XML you provided was not well-formed or did not validate against our published schema.")
	errInvalidBucketName = errf(http.StatusBadRequest, "InvalidBucketName", "The specified bucket is not valid.")
)

type errorXML struct {
	XMLName   xml.Name `xml:"Error"`
	Code      string   `xml:"Code"`
	Message   string   `xml:"Message"`
	RequestID string   `xml:"RequestId,omitempty"`
}

// writeError writes err as S3 XML. HEAD answers carry no body.
func writeError(w http.ResponseWriter, r *http.Request, err *s3Error, requestID string) {
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("X-Amz-Request-Id", requestID)
	w.WriteHeader(err.status)
	if r.Method == http.MethodHead {
		return
	}
	b, _ := xml.Marshal(errorXML{Code: err.code, Message: err.message, RequestID: requestID}) // plain strings
	_, _ = w.Write([]byte(xml.Header))
	_, _ = w.Write(b)
}
