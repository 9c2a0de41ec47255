package rustfstest

import (
	"testing"
)

// docs/rustfs-wire.md §4.1, §13.12: the outbound-URL guard sees the host as
// the url crate parses it, so every WHATWG form of an IPv4 address and
// every IPv6 address that embeds one are refused like the dotted form; host
// names are not resolved. rc runs it for s3 (and wasabi), GA for every type.
func TestOutboundGuardRefusesEveryFormOfARestrictedAddress(t *testing.T) {
	cases := map[string]struct{ host, seen, reason string }{
		"Decimal":         {host: "2130706433", seen: "127.0.0.1", reason: "loopback address"},
		"Hexadecimal":     {host: "0x7f000001", seen: "127.0.0.1", reason: "loopback address"},
		"Octal":           {host: "0177.0.0.1", seen: "127.0.0.1", reason: "loopback address"},
		"TwoParts":        {host: "127.1", seen: "127.0.0.1", reason: "loopback address"},
		"MixedRadix":      {host: "0x7f.0.0.01", seen: "127.0.0.1", reason: "loopback address"},
		"TrailingDot":     {host: "10.0.0.1.", seen: "10.0.0.1", reason: "private address"},
		"PrivateDecimal":  {host: "3232235521", seen: "192.168.0.1", reason: "private address"},
		"IPv4Compatible":  {host: "[::127.0.0.1]", seen: "[::7f00:1]", reason: "loopback address"},
		"IPv4CompatHex":   {host: "[::a00:1]", seen: "[::a00:1]", reason: "private address"},
		"IPv4Mapped":      {host: "[::ffff:10.0.0.1]", seen: "[::ffff:a00:1]", reason: "private address"},
		"MappedMetadata":  {host: "[::ffff:169.254.169.254]", seen: "[::ffff:a9fe:a9fe]", reason: "metadata endpoint"},
		"IPv6Loopback":    {host: "[::1]", seen: "[::1]", reason: "loopback address"},
		"IPv6LinkLocal":   {host: "[fe80::1]", seen: "[fe80::1]", reason: "link-local address"},
		"IPv6UniqueLocal": {host: "[fd00::1]", seen: "[fd00::1]", reason: "private address"},
		"LocalhostCase":   {host: "LocalHost.", seen: "localhost.", reason: "loopback host"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rc, ga := newPair(t, ModeRC), newPair(t, ModeGA)
			detail := ": tier endpoint is not allowed: outbound URL host '" + tc.seen + "' is not allowed: " + tc.reason
			want(t, rc.add(t, endpointBody("s3", "http://"+tc.host+":9000"), "force=true"), 500, "TierAddFailed",
				"tier add failed. "+invalidConfigMsg+detail)
			want(t, ga.add(t, endpointBody("minio", "http://"+tc.host+":9000"), "force=true"), 400, "InvalidArgument", invalidConfigMsg+detail)
		})
	}
}

// Hosts the guard lets through: names (never resolved), IPv6 addresses
// that embed no IPv4 address, and addresses outside the refused classes.
// A host that ends in a number but is no IPv4 address is not a URL.
func TestOutboundGuardPassesNamesAndUnrestrictedAddresses(t *testing.T) {
	for _, host := range []string{"tier.localhost", "127.0.0.1.example", "0x7f000001x", "[::1:2:3:4]", "[ff02::1]", "100.64.0.1"} {
		t.Run(host, func(t *testing.T) {
			p := newPair(t, ModeRC)
			want(t, p.add(t, endpointBody("s3", "http://"+host+":9000"), "force=true"), 200, "", "")
		})
	}
	p := newPair(t, ModeRC)
	want(t, p.add(t, endpointBody("s3", "http://1.2.3.999:9000"), "force=true"), 500, "TierAddFailed",
		"tier add failed. "+invalidConfigMsg+": invalid IPv4 address")
}

// endpointBody is a tier of typ at endpoint.
func endpointBody(typ, endpoint string) []byte {
	return []byte(`{"type":"` + typ + `","` + typ + `":{"name":"A","endpoint":"` + endpoint +
		`","accessKey":"a","secretKey":"b","bucket":"c"}}`)
}
