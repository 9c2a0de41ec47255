package rustfstest

import (
	"errors"
	"fmt"
	"time"
)

// Messages of crates/lifecycle (docs/rustfs-wire.md §8.2 step 5), all sent as 400 InvalidArgument.
const (
	msgTooManyRules     = "Lifecycle configuration should have at most 1000 rules"
	msgNoRule           = "Lifecycle configuration should have at least one rule"
	msgDuplicateID      = "Rule ID must be unique. Found same ID for more than one rule"
	msgBucketLocked     = "ExpiredObjectAllVersions element and DelMarkerExpiration action cannot be used on an object locked bucket"
	msgExpirationDays   = "'Days' for Expiration action must be a positive integer"
	msgNCExpirationDays = "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer"
	msgAbortDays        = "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer"
	msgDateNotMidnight  = "Expiration.Date must be at midnight UTC"
	msgEODMWithDays     = "ExpiredObjectDeleteMarker cannot be specified with Days or Date"
	msgEOAV             = "Days must be a positive integer and Date must not be specified inside Expiration with ExpiredObjectAllVersions"
	msgDelMarkerDays    = "Days must be a positive integer with DelMarkerExpiration"
	msgIDTooLong        = "Rule ID must be at most 255 characters"
	msgDelMarkerTags    = "Rule with DelMarkerExpiration cannot have tags based filtering"
	msgEODMTags         = "Rule with ExpiredObjectDeleteMarker cannot have tags based filtering"
	msgNoAction         = "Rule must have at least one of Expiration, Transition, NoncurrentVersionExpiration, NoncurrentVersionTransition, or DelMarkerExpiration"
	msgPrefixAndFilter  = "Legacy Prefix and Filter cannot both be present in a lifecycle rule. Use Filter.Prefix instead of the top-level Prefix element."
	msgTransition       = "Exactly one of Days (0 or greater) or Date (positive ISO 8601 format) should be present in Transition."
	msgNoStorageClass   = "ERR_XML_NOT_WELL_FORMED" // literally, docs/rustfs-wire.md §8.2
	msgInvalidTier      = "invalid tier."           // ERR_INVALID_STORAGECLASS, docs/rustfs-wire.md §8.2 step 6
)

// assignRuleIDs gives rules without an ID "rule-<index>", or
// "rule-<index>-<n>" on a clash (docs/rustfs-wire.md §8.2 step 2).
func assignRuleIDs(rules []lcRule) {
	used := map[string]bool{}
	for _, r := range rules {
		if r.ID != nil {
			used[*r.ID] = true
		}
	}
	for i := range rules {
		if rules[i].ID != nil {
			continue
		}
		id := fmt.Sprintf("rule-%d", i)
		for n := 1; used[id]; n++ {
			id = fmt.Sprintf("rule-%d-%d", i, n)
		}
		used[id] = true
		rules[i].ID = &id
	}
}

// validateLifecycle is Lifecycle::validate (docs/rustfs-wire.md §8.2 step 5) in its order.
func validateLifecycle(l *lcConfig, objectLock bool) error {
	if len(l.Rules) > 1000 {
		return errors.New(msgTooManyRules)
	}
	if len(l.Rules) == 0 {
		return errors.New(msgNoRule)
	}
	for _, r := range l.Rules {
		if err := validateRule(r, objectLock); err != nil {
			return err
		}
	}
	for i := range l.Rules {
		for j := i + 1; j < len(l.Rules); j++ {
			if *l.Rules[i].ID == *l.Rules[j].ID {
				return errors.New(msgDuplicateID)
			}
		}
	}
	return nil
}

func validateRule(r lcRule, objectLock bool) error {
	if err := validateActions(r); err != nil {
		return err
	}
	if r.ID != nil && len(*r.ID) > 255 {
		return errors.New(msgIDTooLong)
	}
	if err := validateRuleShape(r); err != nil {
		return err
	}
	if objectLock && (r.Expiration != nil && isTrue(r.Expiration.ExpiredObjectAllVersions) || r.DelMarkerExpiration != nil) {
		return errors.New(msgBucketLocked)
	}
	return nil
}

// validateActions checks each action's numbers and the transitions.
func validateActions(r lcRule) error {
	if x := r.Expiration; x != nil {
		switch {
		case x.ExpiredObjectAllVersions != nil && (x.Days == nil || *x.Days < 1 || x.Date != nil):
			return errors.New(msgEOAV)
		case x.Date != nil && !isMidnight(x.Date.Time):
			return errors.New(msgDateNotMidnight)
		case x.Days != nil && *x.Days < 1:
			return errors.New(msgExpirationDays)
		}
	}
	if x := r.NoncurrentVersionExpiration; x != nil && x.NoncurrentDays != nil && *x.NoncurrentDays < 1 {
		return errors.New(msgNCExpirationDays)
	}
	if x := r.AbortIncompleteMultipartUpload; x != nil && (x.DaysAfterInitiation == nil || *x.DaysAfterInitiation < 1) {
		return errors.New(msgAbortDays)
	}
	for _, t := range r.Transitions {
		if err := validateTransition(t); err != nil {
			return err
		}
	}
	for _, t := range r.NoncurrentVersionTransitions {
		switch {
		case t.StorageClass == "":
			return errors.New(msgNoStorageClass)
		case t.NoncurrentDays == nil, *t.NoncurrentDays < 0, t.NewerNoncurrentVersions != nil && *t.NewerNoncurrentVersions < 0:
			return errors.New(msgTransition)
		}
	}
	return nil
}

// validateTransition is TransitionOps::validate: Days 0 is allowed (docs/rustfs-wire.md §8.2).
func validateTransition(t lcTransition) error {
	switch {
	case t.StorageClass == "":
		return errors.New(msgNoStorageClass)
	case (t.Date != nil) == (t.Days != nil), t.Days != nil && *t.Days < 0:
		return errors.New(msgTransition)
	case t.Date != nil && (t.Date.Unix() <= 0 || !isMidnight(t.Date.Time)):
		return errors.New(msgTransition)
	}
	return nil
}

// validateRuleShape is RuleValidate::validate (crates/lifecycle core.rs).
func validateRuleShape(r lcRule) error {
	legacy := r.Prefix != nil && *r.Prefix != ""
	tags := r.Filter != nil && (r.Filter.Tag != nil || r.Filter.And != nil && len(r.Filter.And.Tags) > 0)
	x := r.Expiration
	switch {
	case legacy && r.Filter != nil:
		return errors.New(msgPrefixAndFilter)
	case tags && r.DelMarkerExpiration != nil:
		return errors.New(msgDelMarkerTags)
	case tags && x != nil && isTrue(x.ExpiredObjectDeleteMarker):
		return errors.New(msgEODMTags)
	case x != nil && x.ExpiredObjectDeleteMarker != nil && (x.Days != nil || x.Date != nil):
		return errors.New(msgEODMWithDays)
	case r.DelMarkerExpiration != nil && (r.DelMarkerExpiration.Days == nil || *r.DelMarkerExpiration.Days < 1):
		return errors.New(msgDelMarkerDays)
	}
	if !hasAction(r) {
		return errors.New(msgNoAction)
	}
	return nil
}

func hasAction(r lcRule) bool {
	nce := r.NoncurrentVersionExpiration != nil && r.NoncurrentVersionExpiration.NoncurrentDays != nil
	ncvt := len(r.NoncurrentVersionTransitions) > 0
	dme := r.DelMarkerExpiration != nil && r.DelMarkerExpiration.Days != nil && *r.DelMarkerExpiration.Days > 0
	return r.Expiration != nil || len(r.Transitions) > 0 || nce || ncvt || r.AbortIncompleteMultipartUpload != nil || dme
}

// unknownTier is validate_transition_tier (docs/rustfs-wire.md §8.2 step 6): every non-empty
// storage class must be a registered tier, matched exactly (case-sensitive).
func unknownTier(l *lcConfig, registered func(string) bool) bool {
	for _, r := range l.Rules {
		for _, t := range r.Transitions {
			if t.StorageClass != "" && !registered(t.StorageClass) {
				return true
			}
		}
		for _, t := range r.NoncurrentVersionTransitions {
			if t.StorageClass != "" && !registered(t.StorageClass) {
				return true
			}
		}
	}
	return false
}

func isTrue(b *bool) bool { return b != nil && *b }

func isMidnight(t time.Time) bool {
	t = t.UTC()
	return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
}
