package bucketlifecycle

import (
	"fmt"
	"strings"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// validate checks what the CRD's schema and CEL rules cannot express and
// RustFS would refuse: dates that match the YYYY-MM-DD pattern but are not
// calendar dates, transition dates not after 1970-01-01, and storage
// classes left empty. It returns one actionable message per problem.
func validate(rules []v1alpha1.LifecycleRule) []string {
	var out []string
	for _, r := range rules {
		p := "spec.forProvider.rules[" + r.ID + "]"
		for i, t := range r.Transitions {
			tp := fmt.Sprintf("%s.transitions[%d]", p, i)
			out = append(out, checkDate(tp+".date", t.Date, true)...)
			out = append(out, checkStorageClass(tp, t.StorageClass)...)
		}
		for i, t := range r.NoncurrentVersionTransitions {
			out = append(out, checkStorageClass(fmt.Sprintf("%s.noncurrentVersionTransitions[%d]", p, i), t.StorageClass)...)
		}
		if x := r.Expiration; x != nil {
			out = append(out, checkDate(p+".expiration.date", x.Date, false)...)
		}
	}
	return out
}

// checkDate accepts an empty date (unset) or a real calendar date at
// midnight UTC; transition dates must also lie after the Unix epoch.
func checkDate(path, date string, afterEpoch bool) []string {
	if date == "" {
		return nil
	}
	t, err := parseDate(strings.TrimSpace(date))
	switch {
	case err != nil:
		return []string{fmt.Sprintf("%s: %q is not a calendar date; use a real date as YYYY-MM-DD", path, date)}
	case !isMidnightUTC(t.UTC()):
		return []string{fmt.Sprintf("%s: %q is not midnight UTC; use YYYY-MM-DD or YYYY-MM-DDT00:00:00Z", path, date)}
	case afterEpoch && t.Unix() <= 0:
		return []string{fmt.Sprintf("%s: %q is not after 1970-01-01; RustFS requires a positive date, so use a later one", path, date)}
	}
	return nil
}

func checkStorageClass(path, class string) []string {
	if class != "" {
		return nil
	}
	return []string{path + ": no storage class; set storageClass, or a tierRef or tierSelector to a Ready Tier"}
}

func isMidnightUTC(t time.Time) bool {
	return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
}
