package rustfstest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// gaCreds is GA's TierCreds (tier_admin.rs, docs/rustfs-wire.md §5, §13.13): madmin's names
// and RustFS's own, with creds as base64 or an array of bytes.
type gaCreds struct {
	access, secret               string
	awsRole                      bool
	webIdentity, roleARN         string
	spTenant, spClient, spSecret string
	creds                        []byte
}

// The accepted names of each field, serde rename first, then its aliases.
var (
	credsAccess      = []string{"access", "accessKey"}
	credsSecret      = []string{"secret", "secretKey"}
	credsAWSRole     = []string{"awsrole", "awsRole"}
	credsWebIdentity = []string{"awsroleWebIdentity", "awsRoleWebIdentityTokenFile"}
	credsRoleARN     = []string{"awsroleARN", "awsRoleArn", "awsRoleARN"}
	credsAzSP        = []string{"azSP", "azsp"}
	credsJSON        = []string{"creds", "credsJson", "credsJSON", "creds_json"}
	spTenant         = []string{"TenantID", "tenantID", "tenant_id"}
	spClient         = []string{"ClientID", "clientID", "client_id"}
	spSecret         = []string{"ClientSecret", "clientSecret", "client_secret"}
)

// parseCredsGA decodes an edit body like serde: unknown keys are ignored, a
// field given under two of its names is a duplicate field, null and wrong
// types are errors.
func parseCredsGA(body []byte) (gaCreds, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return gaCreds{}, err
	}
	var c gaCreds
	var raw json.RawMessage
	steps := []func() error{
		func() error { return field(obj, credsAccess, &c.access) },
		func() error { return field(obj, credsSecret, &c.secret) },
		func() error { return field(obj, credsAWSRole, &c.awsRole) },
		func() error { return field(obj, credsWebIdentity, &c.webIdentity) },
		func() error { return field(obj, credsRoleARN, &c.roleARN) },
		func() error { return field(obj, credsAzSP, &raw) },
		func() error { return decodeCredsJSON(obj, &c.creds) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return gaCreds{}, err
		}
	}
	if raw != nil {
		if err := decodeSP(raw, &c); err != nil {
			return gaCreds{}, err
		}
	}
	return c, nil
}

func decodeSP(raw json.RawMessage, c *gaCreds) error {
	var sp map[string]json.RawMessage
	if err := json.Unmarshal(raw, &sp); err != nil {
		return err
	}
	for _, f := range []struct {
		names []string
		v     *string
	}{{spTenant, &c.spTenant}, {spClient, &c.spClient}, {spSecret, &c.spSecret}} {
		if err := field(sp, f.names, f.v); err != nil {
			return err
		}
	}
	return nil
}

// field decodes the one of names present into v.
func field[T any](obj map[string]json.RawMessage, names []string, v *T) error {
	var found json.RawMessage
	for _, n := range names {
		if r, ok := obj[n]; ok {
			if found != nil {
				return fmt.Errorf("duplicate field `%s`", names[0])
			}
			found = r
		}
	}
	if found == nil {
		return nil
	}
	if bytes.Equal(bytes.TrimSpace(found), []byte("null")) {
		return fmt.Errorf("invalid type: null, expected a value for key `%s`", names[0])
	}
	return json.Unmarshal(found, v)
}

// decodeCredsJSON decodes creds: a base64 string (standard or URL-safe,
// padded or not) or an array of bytes.
func decodeCredsJSON(obj map[string]json.RawMessage, out *[]byte) error {
	var raw json.RawMessage
	if err := field(obj, credsJSON, &raw); err != nil || raw == nil {
		return err
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return json.Unmarshal(raw, out)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			*out = b
			return nil
		}
	}
	return fmt.Errorf("invalid base64 in `creds`")
}
