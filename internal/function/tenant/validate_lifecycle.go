package tenant

import (
	"fmt"
	"regexp"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// dateRE is the date form RustFS accepts: midnight UTC.
var dateRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00:00([.]0+)?Z)?$`)

// msgDate is the message for a date in another form or not in the calendar.
const msgDate = "must be a calendar date at midnight UTC, as YYYY-MM-DD or YYYY-MM-DDT00:00:00Z: RustFS rejects other times"

// validDate reports whether s is a real calendar date in the accepted form.
func validDate(s string) bool {
	if !dateRE.MatchString(s) {
		return false
	}
	_, err := time.Parse(time.DateOnly, s[:len(time.DateOnly)])
	return err == nil
}

// validateLifecycle checks a bucket's lifecycle: its state, its rules and
// their unique ids. Rules are named by id in messages.
func validateLifecycle(path string, l TenantLifecycle) error {
	st := stateOf(l)
	if err := firstFailure(path, []check{
		{fail: st != LifecyclePresent && st != LifecycleAbsent, field: ".state", msg: fmt.Sprintf("must be Present or Absent, not %q", l.State)},
		{fail: st == LifecycleAbsent && len(l.Rules) > 0, field: ".rules", msg: "must be empty when state is Absent: Absent removes the bucket's lifecycle configuration"},
		{fail: st == LifecyclePresent && len(l.Rules) == 0, field: ".rules", msg: "state Present needs at least one rule; use state Absent to remove the bucket's lifecycle configuration"},
	}...); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, r := range l.Rules {
		if r.ID == "" {
			return errors.Errorf("%s.rules[%d].id: must be set: it identifies the rule within the bucket", path, i)
		}
		rp := fmt.Sprintf("%s.rules[%s]", path, r.ID)
		if seen[r.ID] {
			return errors.Errorf("%s.id: duplicate rule id %q; rule ids must be unique within a bucket", rp, r.ID)
		}
		seen[r.ID] = true
		if err := validateRule(rp, r); err != nil {
			return err
		}
	}
	return nil
}

// stateOf is the lifecycle state with its default, Present.
func stateOf(l TenantLifecycle) LifecycleState {
	if l.State == "" {
		return LifecyclePresent
	}
	return l.State
}

// validateRule checks one rule and its transitions.
func validateRule(path string, r TenantRule) error {
	if err := firstFailure(path, ruleChecks(r)...); err != nil {
		return err
	}
	for _, t := range itemsAt(path, "transition", "transitions", r.Transition, r.Transitions) {
		if err := validateTransition(t.path, t.v); err != nil {
			return err
		}
	}
	for _, t := range itemsAt(path, "noncurrentVersionTransition", "noncurrentVersionTransitions", r.NoncurrentVersionTransition, r.NoncurrentVersionTransitions) {
		checks := []check{{fail: t.v.NoncurrentDays < 0, field: ".noncurrentDays", msg: "must be 0 or greater"}}
		if err := firstFailure(t.path, append(checks, storageClassChecks(t.v.StorageClass)...)...); err != nil {
			return err
		}
	}
	return nil
}

// An item is a list entry with its path in the spec.
type item[T any] struct {
	path string
	v    T
}

// itemsAt returns the operator's singular field as a one-element list, or
// else the list, each entry with its path.
func itemsAt[T any](path, single, list string, one *T, many []T) []item[T] {
	if one != nil {
		return []item[T]{{path: path + "." + single, v: *one}}
	}
	out := make([]item[T], len(many))
	for i, v := range many {
		out[i] = item[T]{path: fmt.Sprintf("%s.%s[%d]", path, list, i), v: v}
	}
	return out
}

// ruleChecks are the checks of a rule's own fields.
func ruleChecks(r TenantRule) []check {
	return []check{
		{fail: len(r.ID) > 255, field: ".id", msg: "must be at most 255 bytes: RustFS rejects longer rule IDs"},
		{fail: !validRuleStatus(r.Status), field: ".status", msg: fmt.Sprintf("must be Enabled or Disabled, not %q", r.Status)},
		{fail: !hasAction(r), field: "", msg: "a rule needs at least one action (transition, transitions, noncurrentVersionTransition, noncurrentVersionTransitions, expiration, noncurrentVersionExpiration, abortIncompleteMultipartUpload or delMarkerExpiration): RustFS rejects rules without one"},
		{fail: r.Transition != nil && len(r.Transitions) > 0, field: ".transition", msg: "set transition or transitions, not both"},
		{fail: r.NoncurrentVersionTransition != nil && len(r.NoncurrentVersionTransitions) > 0, field: ".noncurrentVersionTransition", msg: "set noncurrentVersionTransition or noncurrentVersionTransitions, not both"},
		{fail: r.Expiration != nil && !validOptionalDate(r.Expiration.Date), field: ".expiration.date", msg: msgDate},
	}
}

// validRuleStatus accepts the rule states and empty, which defaults to
// Enabled.
func validRuleStatus(s v1alpha1.RuleStatus) bool {
	return s == "" || s == v1alpha1.RuleEnabled || s == v1alpha1.RuleDisabled
}

// validOptionalDate accepts an unset date or a valid one.
func validOptionalDate(d string) bool { return d == "" || validDate(d) }

// hasAction reports whether a rule does anything.
func hasAction(r TenantRule) bool {
	return r.Transition != nil || len(r.Transitions) > 0 || r.NoncurrentVersionTransition != nil ||
		len(r.NoncurrentVersionTransitions) > 0 || r.Expiration != nil || r.NoncurrentVersionExpiration != nil ||
		r.AbortIncompleteMultipartUpload != nil || r.DelMarkerExpiration != nil
}

// validateTransition checks one transition: days or date, and a storage
// class that is a tier name.
func validateTransition(path string, t TenantTransition) error {
	checks := []check{
		{fail: (t.Days == nil) == (t.Date == ""), field: "", msg: "set exactly one of days or date: RustFS requires exactly one of Days (0 or greater) or Date in a transition"},
		{fail: t.Days != nil && *t.Days < 0, field: ".days", msg: "must be 0 or greater"},
		{fail: !validOptionalDate(t.Date), field: ".date", msg: msgDate},
	}
	return firstFailure(path, append(checks, storageClassChecks(t.StorageClass)...)...)
}

// storageClassChecks require a storage class that is a valid tier name: a
// tier of the same Tenant, or one managed elsewhere.
func storageClassChecks(sc string) []check {
	if sc == "" {
		return []check{{fail: true, field: ".storageClass", msg: "must name a tier: a tier of this Tenant or one registered in RustFS elsewhere"}}
	}
	rule := naming.Tier.Broken(sc)
	return []check{{fail: rule != "", field: ".storageClass", msg: fmt.Sprintf("%q is not a tier name: a storage class %s", sc, rule)}}
}
