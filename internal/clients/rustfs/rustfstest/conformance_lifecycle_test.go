package rustfstest

import (
	"net/http"
	"strings"
	"testing"
)

func lcBody(rules string) []byte {
	return []byte(`<LifecycleConfiguration>` + rules + `</LifecycleConfiguration>`)
}

func putLC(t *testing.T, p pair, bucket string, body []byte) result {
	t.Helper()
	return do(t, p.local.URL(), req{method: http.MethodPut, path: "/" + bucket, query: "lifecycle=", body: body})
}

func getLC(t *testing.T, p pair, bucket string) result {
	t.Helper()
	return do(t, p.local.URL(), req{method: http.MethodGet, path: "/" + bucket, query: "lifecycle="})
}

type lcCase struct {
	body          []byte
	status        int
	code, message string
}

const tr = `<Transition><Days>1</Days><StorageClass>COLD</StorageClass></Transition>`

// lcCases follow docs/rustfs-wire.md §8.2: validation order and exact messages.
func lcCases() map[string]lcCase {
	return map[string]lcCase{
		"EmptyBodyIsInvalidArgument":  {body: nil, status: 400, code: "InvalidArgument"},
		"NotXMLIsMalformedXML":        {body: []byte("<nope"), status: 400, code: "MalformedXML"},
		"MissingStatusIsMalformedXML": {body: lcBody(`<Rule>` + tr + `</Rule>`), status: 400, code: "MalformedXML"},
		"BadStatusIsMalformedXML": {body: lcBody(`<Rule><Status>enabled</Status>` + tr + `</Rule>`), status: 400,
			code: "MalformedXML", message: "Malformed XML: Rule status must be either Enabled or Disabled"},
		"NoRulesIsMalformedXML": {body: lcBody(""), status: 400, code: "MalformedXML"},
		"ExpirationDaysZero": {body: lcBody(`<Rule><Status>Enabled</Status><Expiration><Days>0</Days></Expiration></Rule>`),
			status: 400, code: "InvalidArgument", message: msgExpirationDays},
		"ExpirationDateNotMidnight": {body: lcBody(`<Rule><Status>Enabled</Status><Expiration><Date>2030-01-01T10:00:00Z</Date></Expiration></Rule>`),
			status: 400, code: "InvalidArgument", message: msgDateNotMidnight},
		"TransitionWithoutStorageClass": {body: lcBody(`<Rule><Status>Enabled</Status><Transition><Days>1</Days></Transition></Rule>`),
			status: 400, code: "InvalidArgument", message: "ERR_XML_NOT_WELL_FORMED"},
		"TransitionDaysAndDate": {body: lcBody(`<Rule><Status>Enabled</Status><Transition><Days>1</Days><Date>2030-01-01T00:00:00Z</Date><StorageClass>COLD</StorageClass></Transition></Rule>`),
			status: 400, code: "InvalidArgument", message: msgTransition},
		"TransitionNegativeDays": {body: lcBody(`<Rule><Status>Enabled</Status><Transition><Days>-1</Days><StorageClass>COLD</StorageClass></Transition></Rule>`),
			status: 400, code: "InvalidArgument", message: msgTransition},
		"LegacyPrefixAndFilter": {body: lcBody(`<Rule><Status>Enabled</Status><Prefix>a/</Prefix><Filter><Prefix>b/</Prefix></Filter>` + tr + `</Rule>`),
			status: 400, code: "InvalidArgument", message: msgPrefixAndFilter},
		"DelMarkerWithTags": {body: lcBody(`<Rule><Status>Enabled</Status><Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><DelMarkerExpiration><Days>1</Days></DelMarkerExpiration></Rule>`),
			status: 400, code: "InvalidArgument", message: msgDelMarkerTags},
		"NoAction": {body: lcBody(`<Rule><Status>Enabled</Status><Filter><Prefix>a</Prefix></Filter></Rule>`),
			status: 400, code: "InvalidArgument", message: msgNoAction},
		"DuplicateIDs": {body: lcBody(`<Rule><ID>x</ID><Status>Enabled</Status>` + tr + `</Rule><Rule><ID>x</ID><Status>Enabled</Status>` + tr + `</Rule>`),
			status: 400, code: "InvalidArgument", message: msgDuplicateID},
		"IDTooLong": {body: lcBody(`<Rule><ID>` + strings.Repeat("a", 256) + `</ID><Status>Enabled</Status>` + tr + `</Rule>`),
			status: 400, code: "InvalidArgument", message: msgIDTooLong},
		"UnknownTierIsInvalidTier": {body: lcBody(`<Rule><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition></Rule>`),
			status: 400, code: "InvalidArgument", message: "invalid tier."},
		"TierMatchIsCaseSensitive": {body: lcBody(`<Rule><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>cold</StorageClass></Transition></Rule>`),
			status: 400, code: "InvalidArgument", message: "invalid tier."},
		"NoncurrentUnknownTier": {body: lcBody(`<Rule><Status>Enabled</Status><NoncurrentVersionTransition><NoncurrentDays>1</NoncurrentDays><StorageClass>NOPE</StorageClass></NoncurrentVersionTransition></Rule>`),
			status: 400, code: "InvalidArgument", message: "invalid tier."},
		"TransitionDaysZeroAllowed": {body: lcBody(`<Rule><Status>Enabled</Status><Transition><Days>0</Days><StorageClass>COLD</StorageClass></Transition></Rule>`),
			status: 200},
		"NoFilterNoPrefixAllowed": {body: lcBody(`<Rule><Status>Disabled</Status>` + tr + `</Rule>`), status: 200},
		"BucketLifecycleConfigurationRoot": {body: []byte(`<BucketLifecycleConfiguration><Rule><Status>Enabled</Status>` + tr + `</Rule></BucketLifecycleConfiguration>`),
			status: 200},
	}
}

// docs/rustfs-wire.md §12.9: lifecycle PUT validation.
func TestLifecyclePutValidation(t *testing.T) {
	for name, tc := range lcCases() {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, ModeRC)
			p.local.CreateBucket("data", false)
			p.local.SeedTier(TierRecord{Type: "rustfs", Name: "COLD"})
			want(t, putLC(t, p, "data", tc.body), tc.status, tc.code, tc.message)
		})
	}
}

func TestLifecycleObjectLockRefusesDelMarkerExpiration(t *testing.T) {
	p := newPair(t, ModeRC)
	p.local.CreateBucket("locked", true)
	got := putLC(t, p, "locked", lcBody(`<Rule><Status>Enabled</Status><DelMarkerExpiration><Days>1</Days></DelMarkerExpiration></Rule>`))
	want(t, got, 400, "InvalidArgument", msgBucketLocked)
}

func TestLifecycleGetAssignsIDsReordersAndReformatsDates(t *testing.T) {
	p := newPair(t, ModeRC)
	p.local.CreateBucket("data", false)
	p.local.SeedTier(TierRecord{Type: "rustfs", Name: "COLD"})
	body := lcBody(`<Rule><ID>rule-0</ID><Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule>` +
		`<Rule><Status>Enabled</Status><Transition><StorageClass>COLD</StorageClass><Date>2030-01-01T00:00:00Z</Date></Transition></Rule>`)
	want(t, putLC(t, p, "data", body), 200, "", "")
	got := getLC(t, p, "data")
	s := string(got.Body)
	for _, sub := range []string{`xmlns="http://s3.amazonaws.com/doc/2006-03-01/"`, "<ID>rule-1</ID>",
		"<Transition><Date>2030-01-01T00:00:00.000Z</Date><StorageClass>COLD</StorageClass></Transition>",
		"<Expiration><Days>3</Days></Expiration><ID>rule-0</ID>"} {
		if !strings.Contains(s, sub) {
			t.Errorf("GET lacks %s:\n%s", sub, s)
		}
	}
}

func TestLifecycleNotFoundAndDelete(t *testing.T) {
	p := newPair(t, ModeRC)
	want(t, getLC(t, p, "missing"), 404, "NoSuchBucket", "")
	p.local.CreateBucket("data", false)
	want(t, getLC(t, p, "data"), 404, "NoSuchLifecycleConfiguration", "")
	del := do(t, p.local.URL(), req{method: http.MethodDelete, path: "/data", query: "lifecycle="})
	if del.Status != http.StatusNoContent {
		t.Errorf("DELETE lifecycle: want 204, got %d", del.Status)
	}
}

func TestNonRootNeedsPutBucketLifecycle(t *testing.T) {
	p := newPair(t, ModeRC, WithUser("app", "app-sk", "s3:GetBucketLifecycle"))
	p.local.CreateBucket("data", false)
	got := do(t, p.local.URL(), req{method: http.MethodPut, path: "/data", query: "lifecycle=", ak: "app", sk: "app-sk",
		body: lcBody(`<Rule><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>`)})
	want(t, got, 403, "AccessDenied", "Access Denied")
}
