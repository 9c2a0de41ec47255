package rustfstest

import (
	"net/http"
	"strings"
	"testing"
)

// docs/rustfs-wire.md §3.1, §3.4: RustFS adds any name that upper-casing
// leaves unchanged, ÄRCHIV included, but edit and remove match the raw path
// segment: percent-encoded, the name is not found by edit and remove
// answers success without removing it, while verify decodes it. This is
// why the provider's tier names stay ASCII.
func TestPercentEncodedTierNameCannotBeEditedOrRemoved(t *testing.T) {
	for _, mode := range []Mode{ModeRC, ModeGA} {
		t.Run(mode.String(), func(t *testing.T) {
			p := newPair(t, mode)
			p.remote.SetUser("rotated", "rotated-sk", "s3:*")
			body := strings.Replace(string(p.tierJSON("X")), `"name":"X"`, `"name":"ÄRCHIV"`, 1)
			want(t, p.add(t, []byte(body), ""), 200, "", "")
			want(t, p.admin(t, http.MethodPost, "/tier/%C3%84RCHIV", "", []byte(`{"accessKey":"rotated","secretKey":"rotated-sk"}`)),
				500, "TierNotFound", "tier not found")
			want(t, p.admin(t, http.MethodGet, "/tier/%C3%84RCHIV", "", nil), 200, "", "")
			want(t, p.admin(t, http.MethodDelete, "/tier/%C3%84RCHIV", "", nil), 200, "", "")
			if rec, ok := p.local.Tier("ÄRCHIV"); !ok || rec.AccessKey != remoteAK {
				t.Errorf("after edit and remove: present %t, access key %q; want both to have missed the tier", ok, rec.AccessKey)
			}
		})
	}
}
