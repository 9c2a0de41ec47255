package rustfstest

import (
	"encoding/json"
	"net/url"
	"strings"
)

// The checks RustFS makes on a tier configuration before it calls the
// remote: Wasabi's endpoint, GA's credential validation and each backend
// constructor's local checks (docs/rustfs-wire.md §2, §4.1, §4.2, §13.12).

// wasabiAlternatives are the alternative endpoints RustFS accepts per
// region (tier_config.rs › WASABI_ALTERNATIVE_ENDPOINTS).
var wasabiAlternatives = map[string]string{
	"us-east-1": "https://s3.us-east-1.wasabisys.com", "eu-central-1": "https://s3.nl-1.wasabisys.com",
	"eu-central-2": "https://s3.de-1.wasabisys.com", "eu-west-1": "https://s3.uk-1.wasabisys.com",
	"eu-west-2": "https://s3.fr-1.wasabisys.com", "eu-west-3": "https://s3.uk-2.wasabisys.com",
	"eu-south-1": "https://s3.it-1.wasabisys.com",
}

// WasabiEndpoint returns the endpoint RustFS stores for a Wasabi tier in
// region (TierWasabi::canonical_endpoint), or "" for an invalid region.
func WasabiEndpoint(region string) string {
	if len(region) < 1 || len(region) > 63 || strings.Trim(region, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" ||
		strings.HasPrefix(region, "-") || strings.HasSuffix(region, "-") {
		return ""
	}
	if region == "us-east-1" {
		return "https://s3.wasabisys.com"
	}
	return "https://s3." + region + ".wasabisys.com"
}

// normalizeWasabi is TierWasabi::normalize_endpoint: the region decides the
// endpoint; a given endpoint must be the canonical or the alternative one.
func normalizeWasabi(t *TierRecord) *tierError {
	want := WasabiEndpoint(t.Region)
	switch {
	case want == "":
		return invalidConfig("invalid Wasabi region")
	case t.Endpoint != "" && t.Endpoint != want && t.Endpoint != wasabiAlternatives[t.Region]:
		return invalidConfig("Wasabi endpoint must be " + want)
	}
	t.Endpoint = want
	return nil
}

// redactedValue is how RustFS lists a secret; GA refuses it as a credential.
const redactedValue = "REDACTED"

func missingKey(v string) bool { return v == "" || strings.TrimSpace(v) == redactedValue }

// validateCredentials is GA's validate_tier_config_credentials (docs/rustfs-wire.md §2).
func validateCredentials(t TierRecord) *tierError {
	switch t.Type {
	case "gcs":
		return validateGCSCreds(t.Creds)
	case "azure":
		if t.StorageClass != "" || t.SPTenantID != "" || t.SPClientID != "" || t.SPClientSecret != "" {
			return invalidConfig("Azure remote tiers do not support storageClass or spAuth yet; leave both unset")
		}
	}
	if missingKey(t.AccessKey) || missingKey(t.SecretKey) {
		return errMissingCreds
	}
	return nil
}

// validateGCSCreds is GA's validate_gcs_credentials_json: JSON whose
// "type" is "service_account". The GCS backend then reads the same JSON
// as an authorized user (checkGCS), which a real service-account key is
// not (docs/rustfs-wire.md §2).
func validateGCSCreds(creds string) *tierError {
	if missingKey(creds) {
		return errMissingCreds
	}
	var v map[string]any
	if json.Unmarshal([]byte(creds), &v) != nil {
		return invalidConfig("GCS credentials must be valid service account JSON")
	}
	if v["type"] != "service_account" {
		return invalidConfig("GCS credentials must describe a service account")
	}
	return nil
}

// checkLocal is the backend constructor's local validation. Failures are
// "Unable to setup remote tier, check tier configuration: <detail>".
func (e *Emulator) checkLocal(t TierRecord) *tierError {
	var detail string
	switch {
	case t.Type == "gcs":
		detail = checkGCS(t)
	case t.Type == "s3":
		detail = checkS3(t)
	case e.mode == ModeGA:
		detail = checkS3Compatible(t)
	default:
		detail = checkS3CompatibleRC(t)
	}
	if detail != "" {
		return invalidConfig(invalidConfigMsg + ": " + detail)
	}
	return nil
}

// checkS3 is WarmBackendS3::new: the URL, the outbound-URL guard, both
// keys or neither, a bucket; neither key is refused too.
func checkS3(t TierRecord) string {
	if detail := guardEndpoint(t.Endpoint); detail != "" {
		return detail
	}
	switch {
	case (t.AccessKey == "") != (t.SecretKey == ""):
		return "both the access and secret keys are required"
	case t.Bucket == "":
		return "no bucket name was provided"
	case t.AccessKey == "":
		return "insufficient parameters for S3 backend authentication"
	}
	return ""
}

// guardEndpoint parses an endpoint as the url crate does and runs the
// outbound-URL guard on its host (egress.go): RustFS's text, or "".
func guardEndpoint(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "invalid endpoint: " + endpoint
	}
	host, err := urlHost(u.Hostname())
	if err != nil {
		return err.Error()
	}
	if reason := outboundRefusal(host); reason != "" {
		return "tier endpoint is not allowed: outbound URL host '" + host + "' is not allowed: " + reason
	}
	return ""
}

// checkS3Compatible is GA's new_s3_compatible_warm_backend, shared by every
// other S3-speaking type: keys, bucket, URL, host, then the outbound-URL
// guard, which GA runs for every type (docs/rustfs-wire.md §13.12).
func checkS3Compatible(t TierRecord) string {
	if t.AccessKey == "" || t.SecretKey == "" {
		return "both access and secret keys are required"
	}
	if t.Bucket == "" {
		return "no bucket name was provided"
	}
	u, err := url.Parse(t.Endpoint)
	switch {
	case err != nil:
		return err.Error()
	case u.Hostname() == "":
		return "Invalid endpoint URL: missing host"
	}
	return guardEndpoint(t.Endpoint)
}

// checkS3CompatibleRC is the rc constructors of the other S3-speaking
// types: an endpoint with a host, both keys, a bucket; no guard.
func checkS3CompatibleRC(t TierRecord) string {
	u, err := url.Parse(t.Endpoint)
	switch {
	case err != nil || u.Host == "":
		return "invalid endpoint: " + t.Endpoint
	case t.AccessKey == "" || t.SecretKey == "":
		return "both access and secret keys are required"
	case t.Bucket == "":
		return "no bucket name was provided"
	}
	return ""
}

// checkGCS is WarmBackendGCS::new: credentials (with the S3 backends'
// message), a bucket, then the credentials JSON, which RustFS reads with
// Google's authorized-user builder (gcs.go, docs/rustfs-wire.md §2).
func checkGCS(t TierRecord) string {
	switch {
	case t.Creds == "":
		return "both access and secret keys are required"
	case t.Bucket == "":
		return "no bucket name was provided"
	}
	_, problem := parseAuthorizedUser(t.Creds)
	return problem
}
