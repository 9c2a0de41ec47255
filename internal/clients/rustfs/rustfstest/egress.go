package rustfstest

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// The outbound-URL guard of RustFS's tier backends (docs/rustfs-wire.md
// §4.1, §13.12; crates/utils/src/egress.rs › validate_outbound_url). RustFS
// parses the endpoint with the url crate, which follows the WHATWG URL
// standard: a host that ends in a number is an IPv4 address in any of its
// forms (2130706433, 0x7f000001, 0177.0.0.1, 127.1), and the guard sees the
// dotted form. IP literals that are loopback, private, link-local,
// unspecified or the metadata address, also inside IPv4-mapped or
// IPv4-compatible IPv6, are refused, as is the exact host localhost. Host
// names are not resolved.

// errInvalidIPv4 is the url crate's answer to a host that ends in a number
// but is no IPv4 address (for example 1.2.3.999).
var errInvalidIPv4 = errors.New("invalid IPv4 address") // the url crate's text

// urlHost returns the host of an http(s) URL as the url crate serializes
// it: lower case, an IPv4 address in any WHATWG form as a dotted quad, an
// IPv6 address in brackets. hostname is net/url's Hostname().
func urlHost(hostname string) (string, error) {
	h := strings.ToLower(hostname)
	if strings.Contains(h, ":") {
		ip, err := netip.ParseAddr(h)
		if err != nil {
			return "", err
		}
		return "[" + ipv6String(ip.WithZone("")) + "]", nil
	}
	if !endsInNumber(h) {
		return h, nil
	}
	ip, ok := whatwgIPv4(h)
	if !ok {
		return "", errInvalidIPv4
	}
	return ip.String(), nil
}

// ipv6String serializes an IPv6 address as WHATWG does: hexadecimal
// groups only, also for an IPv4-mapped address.
func ipv6String(ip netip.Addr) string {
	if !ip.Is4In6() {
		return ip.String()
	}
	b := ip.As16()
	return "::ffff:" + strconv.FormatUint(uint64(b[12])<<8|uint64(b[13]), 16) + ":" +
		strconv.FormatUint(uint64(b[14])<<8|uint64(b[15]), 16)
}

// endsInNumber is the WHATWG "ends in a number checker": the last label
// (ignoring one trailing dot) is all digits or a 0x hexadecimal number.
func endsInNumber(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok && (strings.HasPrefix(last, "0x") || strings.HasPrefix(last, "0X"))
}

// whatwgIPv4 is the WHATWG IPv4 parser: up to four parts, each decimal,
// octal (leading 0) or hexadecimal (0x); the last part fills the remaining
// bytes.
func whatwgIPv4(h string) (netip.Addr, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		last := i == len(parts)-1
		if !ok || (!last && n > 255) || (last && n >= 1<<(8*(5-len(parts)))) {
			return netip.Addr{}, false
		}
		if last {
			v += n
		} else {
			v += n << (8 * (3 - i))
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// ipv4Number parses one part of an IPv4 address in its radix.
func ipv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	}
	if p == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(p, base, 64)
	return n, err == nil
}

// outboundRefusal is validate_outbound_url for a host as urlHost returns
// it: the reason RustFS refuses it, or "" when it passes.
func outboundRefusal(host string) string {
	h := strings.Trim(strings.TrimRight(host, "."), "[]")
	if strings.EqualFold(h, "localhost") {
		return "loopback host"
	}
	ip, err := netip.ParseAddr(h)
	if err != nil {
		return "" // a host name: not resolved
	}
	if ip.Is6() {
		if r := ipv6Refusal(ip); r != "" {
			return r
		}
		ip = embeddedIPv4(ip)
	}
	return ipv4Refusal(ip)
}

// ipv6Refusal checks the IPv6 classes validate_outbound_ip refuses before
// it looks for an embedded IPv4 address.
func ipv6Refusal(ip netip.Addr) string {
	switch {
	case ip == netip.IPv6Loopback():
		return "loopback address"
	case ip == netip.IPv6Unspecified():
		return "unspecified address"
	case netip.MustParsePrefix("fe80::/10").Contains(ip):
		return "link-local address"
	case netip.MustParsePrefix("fc00::/7").Contains(ip):
		return "private address"
	}
	return ""
}

// embeddedIPv4 is embedded_ipv4: the IPv4 address inside an IPv4-mapped
// (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d, but not :: or ::1)
// address, else ip itself.
func embeddedIPv4(ip netip.Addr) netip.Addr {
	if ip.Is4In6() {
		return ip.Unmap()
	}
	b := ip.As16()
	for _, x := range b[:12] {
		if x != 0 {
			return ip
		}
	}
	v4 := netip.AddrFrom4([4]byte(b[12:]))
	if v4 == netip.IPv4Unspecified() || v4 == netip.AddrFrom4([4]byte{0, 0, 0, 1}) {
		return ip
	}
	return v4
}

// ipv4Refusal checks the remaining classes; IPv6 addresses without an
// embedded IPv4 address pass.
func ipv4Refusal(ip netip.Addr) string {
	switch {
	case ip.IsUnspecified():
		return "unspecified address"
	case ip == netip.AddrFrom4([4]byte{169, 254, 169, 254}):
		return "metadata endpoint"
	case !ip.Is4():
		return ""
	case ip.IsLoopback():
		return "loopback address"
	case ip.IsLinkLocalUnicast():
		return "link-local address"
	case ip.IsPrivate():
		return "private address"
	}
	return ""
}
