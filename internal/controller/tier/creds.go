package tier

import (
	"context"
	"encoding/json"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// The credential shapes of the tier types (docs/rustfs-wire.md §2): the S3
// access key and secret key of the remote (Azure's too: RustFS reaches it
// over S3), or, for GCS, a Google OAuth authorized-user JSON.

// credentialKeys returns the keys of the Tier's Secret that hold its
// credentials.
func credentialKeys(cr *v1alpha1.Tier) []string {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	if cr.Spec.ForProvider.Type == v1alpha1.TierTypeGCS {
		return []string{keyOr(ref.AuthorizedUserKey, v1alpha1.DefaultAuthorizedUserKey)}
	}
	return []string{keyOr(ref.AccessKeyKey, v1alpha1.DefaultAccessKeyKey), keyOr(ref.SecretKeyKey, v1alpha1.DefaultSecretKeyKey)}
}

// gcsKindProblem says what a GCS tier's Secret value must be.
const gcsKindProblem = "does not hold a Google OAuth authorized-user JSON (a JSON object with the strings type, client_id, " +
	"client_secret and refresh_token, as `gcloud auth application-default login` writes it); RustFS refuses a " +
	"service-account key, which has no client_secret or refresh_token"

// authorizedUser is what RustFS's GCS backend reads from the credentials
// JSON (google-cloud-auth's authorized-user builder): four strings.
type authorizedUser struct {
	Type         *string `json:"type"`
	ClientID     string  `json:"client_id"`
	ClientSecret string  `json:"client_secret"`
	RefreshToken string  `json:"refresh_token"`
}

// fromSecret returns the credentials read from the Secret name. A GCS key
// must hold a Google authorized-user JSON, which is what RustFS reads; its
// client_id stands in for the access key, whose hash status records.
func fromSecret(cr *v1alpha1.Tier, name string, v connection.SecretValues) (secretCreds, error) {
	keys := credentialKeys(cr)
	c := secretCreds{name: name, version: v.ResourceVersion}
	if len(keys) == 2 {
		c.accessKey, c.secretKey = v.Values[keys[0]], v.Values[keys[1]]
		return c, nil
	}
	var au authorizedUser
	if json.Unmarshal([]byte(v.Values[keys[0]]), &au) != nil || au.Type == nil || au.ClientID == "" ||
		au.ClientSecret == "" || au.RefreshToken == "" {
		return secretCreds{}, &connection.SecretError{Namespace: cr.GetNamespace(), Name: name, Key: keys[0], Problem: gcsKindProblem}
	}
	c.accessKey, c.gcsCredentials = au.ClientID, v.Values[keys[0]]
	return c, nil
}

// withCredentials returns t with the credentials c.
func withCredentials(t rustfs.Tier, c secretCreds) rustfs.Tier {
	if t.Type == rustfs.TierGCS {
		t.Creds = c.gcsCredentials
		return t
	}
	t.AccessKey, t.SecretKey = c.accessKey, c.secretKey
	return t
}

// edit applies the credentials c to the tier with one credentials-only edit.
func (e *external) edit(ctx context.Context, cr *v1alpha1.Tier, c secretCreds) error {
	name := cr.Spec.ForProvider.Name
	if cr.Spec.ForProvider.Type == v1alpha1.TierTypeGCS {
		return e.api.EditTierGCSCredentials(ctx, name, c.gcsCredentials)
	}
	return e.api.EditTierCredentials(ctx, name, c.accessKey, c.secretKey)
}
