package rustfs

import "testing"

// The identity cache is keyed by everything that authenticates or verifies
// a request: an identity proven with one secret key, region or TLS setting
// never answers a configuration with another.
func TestIdentityKeyCoversEverythingThatAuthenticates(t *testing.T) {
	base := Config{Endpoint: "https://rustfs:9000", Region: "us-east-1", AccessKey: "AKADMIN", SecretKey: sentinel, CABundle: []byte("ca")}
	cases := map[string]func(*Config){
		"Endpoint":  func(c *Config) { c.Endpoint = "https://other:9000" },
		"Region":    func(c *Config) { c.Region = "eu-west-1" },
		"AccessKey": func(c *Config) { c.AccessKey = "AKOTHER" },
		"SecretKey": func(c *Config) { c.SecretKey = "wrong-secret-key" },
		"CABundle":  func(c *Config) { c.CABundle = []byte("other ca") },
		"Insecure":  func(c *Config) { c.InsecureSkipVerify = true },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			other := base
			change(&other)
			if identityKey(other) == identityKey(base) {
				t.Errorf("a different %s gives the same identity key", name)
			}
		})
	}
}
