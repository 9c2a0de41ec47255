package rustfs

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

const sentinel = "sentinel-SECRET-do-not-print"

func formats(v any) []string {
	return []string{fmt.Sprintf("%v", v), fmt.Sprintf("%+v", v), fmt.Sprintf("%#v", v), fmt.Sprintf("%s", v), fmt.Sprint(v)}
}

func TestSecretsAreNeverPrinted(t *testing.T) {
	cfg := Config{Endpoint: "http://127.0.0.1:1", AccessKey: "ak", SecretKey: sentinel}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tier := Tier{Type: TierS3, Name: "COLD", AccessKey: "ak", SecretKey: sentinel}
	gcs := Tier{Type: TierGCS, Name: "GCS", Creds: `{"private_key":"` + sentinel + `"}`}
	values := map[string]any{
		"Config": cfg, "*Config": &cfg, "Tier": tier, "*Tier": &tier, "[]Tier": []Tier{tier}, "gcs Tier": gcs,
		"Client": c, "struct": struct{ C Config }{cfg},
	}
	for name, v := range values {
		for _, s := range formats(v) {
			if strings.Contains(s, sentinel) {
				t.Errorf("%s printed the secret: %s", name, s)
			}
		}
	}
}

func TestErrorsNeverContainSecrets(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeRC)
	bad := p.clientAs(t, rustfstest.DefaultAccessKey, sentinel)
	tier := p.tier("COLD")
	tier.SecretKey = sentinel
	var errs []error
	_, err := bad.ListTiers(ctx)
	errs = append(errs, err, p.client.AddTier(ctx, tier, false))
	tier.Name = "cold"
	errs = append(errs, p.client.AddTier(ctx, tier, false), p.client.EditTierCredentials(ctx, "NOPE", "ak", sentinel))
	p.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Reset: true})
	errs = append(errs, p.client.AddTier(ctx, p.tier("X"), false))
	if _, err := New(Config{Endpoint: "ftp://x", AccessKey: "ak", SecretKey: sentinel}); err != nil {
		errs = append(errs, err)
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("case %d: want an error", i)
			continue
		}
		for _, s := range formats(err) {
			if strings.Contains(s, sentinel) {
				t.Errorf("case %d printed the secret: %s", i, s)
			}
		}
	}
}
