package tier

import (
	"context"
	"encoding/json"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// The credential shapes of the tier types (docs/rustfs-wire.md §2): an access key and a
// secret key (for Azure the storage account name and key), or, for GCS, a
// service account JSON key.

// credentialKeys returns the keys of the Tier's Secret that hold its
// credentials.
func credentialKeys(cr *v1alpha1.Tier) []string {
	ref := cr.Spec.ForProvider.CredentialsSecretRef
	if cr.Spec.ForProvider.Type == v1alpha1.TierTypeGCS {
		return []string{keyOr(ref.ServiceAccountKey, v1alpha1.DefaultServiceAccountKey)}
	}
	return []string{keyOr(ref.AccessKeyKey, v1alpha1.DefaultAccessKeyKey), keyOr(ref.SecretKeyKey, v1alpha1.DefaultSecretKeyKey)}
}

// fromSecret returns the credentials read from the Secret name. A GCS
// key must hold service account JSON, which RustFS refuses otherwise; its
// client_email stands in for the access key, whose hash status records.
func fromSecret(cr *v1alpha1.Tier, name string, v connection.SecretValues) (secretCreds, error) {
	keys := credentialKeys(cr)
	c := secretCreds{name: name, version: v.ResourceVersion}
	if len(keys) == 2 {
		c.accessKey, c.secretKey = v.Values[keys[0]], v.Values[keys[1]]
		return c, nil
	}
	var sa struct {
		Type        string `json:"type"`
		ClientEmail string `json:"client_email"`
	}
	if json.Unmarshal([]byte(v.Values[keys[0]]), &sa) != nil || sa.Type != "service_account" {
		return secretCreds{}, &connection.SecretError{Namespace: cr.GetNamespace(), Name: name, Key: keys[0],
			Problem: `does not hold a service account JSON key (a JSON object whose "type" is "service_account")`}
	}
	c.accessKey, c.serviceAccount = sa.ClientEmail, v.Values[keys[0]]
	return c, nil
}

// withCredentials returns t with the credentials c.
func withCredentials(t rustfs.Tier, c secretCreds) rustfs.Tier {
	if t.Type == rustfs.TierGCS {
		t.Creds = c.serviceAccount
		return t
	}
	t.AccessKey, t.SecretKey = c.accessKey, c.secretKey
	return t
}

// edit applies the credentials c to the tier with one credentials-only edit.
func (e *external) edit(ctx context.Context, cr *v1alpha1.Tier, c secretCreds) error {
	name := cr.Spec.ForProvider.Name
	if cr.Spec.ForProvider.Type == v1alpha1.TierTypeGCS {
		return e.api.EditTierServiceAccount(ctx, name, c.serviceAccount)
	}
	return e.api.EditTierCredentials(ctx, name, c.accessKey, c.secretKey)
}
