package rustfstest

import (
	"bytes"
	"net/http"
)

// getLifecycle is GET ?lifecycle (docs/rustfs-wire.md §8.1): NoSuchBucket first, then 404
// NoSuchLifecycleConfiguration when none is set; otherwise the stored rules
// re-rendered in s3s element order and date format.
func (e *Emulator) getLifecycle(c *call) *s3Error {
	if err := c.authorize("s3:GetBucketLifecycle"); err != nil {
		return err
	}
	e.mu.Lock()
	b, ok := e.buckets[c.bucket]
	var body []byte
	if ok && b.lifecycle != nil {
		body = b.lifecycle.render()
	}
	e.mu.Unlock()
	if !ok {
		return errNoSuchBucket
	}
	if body == nil {
		return errNoSuchLifecycle
	}
	c.w.Header().Set("Content-Type", "application/xml")
	_, _ = c.w.Write(body)
	return nil
}

// putLifecycle is execute_put_bucket_lifecycle_configuration (docs/rustfs-wire.md §8.2) in its
// order: empty body, strict parse (§8.3), ID assignment, status,
// Lifecycle::validate, tier check, then store (dropping the fields named by
// WithDroppedLifecycleFields).
func (e *Emulator) putLifecycle(c *call) *s3Error {
	if err := c.authorize("s3:PutBucketLifecycle"); err != nil {
		return err
	}
	objectLock, ok := e.bucketLock(c.bucket)
	if !ok {
		return errNoSuchBucket
	}
	if len(bytes.TrimSpace(c.body)) == 0 { // docs/rustfs-wire.md §8.2 step 1: no message
		return invalidArgument("")
	}
	if checkStrict(c.body) != nil { // docs/rustfs-wire.md §8.3
		return errMalformedXML
	}
	l, err := parseLifecycle(c.body)
	if err != nil {
		return errMalformedXML
	}
	assignRuleIDs(l.Rules)
	for _, r := range l.Rules {
		if *r.Status != "Enabled" && *r.Status != "Disabled" { // docs/rustfs-wire.md §8.2 step 3
			return errf(http.StatusBadRequest, "MalformedXML", "Malformed XML: Rule status must be either Enabled or Disabled")
		}
	}
	if err := validateLifecycle(l, objectLock); err != nil {
		return invalidArgument(err.Error())
	}
	return e.storeLifecycle(c, l)
}

func (e *Emulator) storeLifecycle(c *call, l *lcConfig) *s3Error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if unknownTier(l, func(name string) bool { _, ok := e.tiers[name]; return ok }) {
		return invalidArgument(msgInvalidTier)
	}
	b, ok := e.buckets[c.bucket]
	if !ok {
		return errNoSuchBucket
	}
	dropFields(l, e.dropped)
	b.lifecycle = l
	return nil
}

// deleteLifecycle is DELETE ?lifecycle: 204 whether or not one was set (docs/rustfs-wire.md §8.1).
func (e *Emulator) deleteLifecycle(c *call) *s3Error {
	if err := c.authorize("s3:PutBucketLifecycle"); err != nil {
		return err
	}
	e.mu.Lock()
	b, ok := e.buckets[c.bucket]
	if ok {
		b.lifecycle = nil
	}
	e.mu.Unlock()
	if !ok {
		return errNoSuchBucket
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

func (e *Emulator) bucketLock(name string) (objectLock, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.buckets[name]
	if !ok {
		return false, false
	}
	return b.objectLock, true
}

// SetLifecycleXML stores a lifecycle configuration out of band, without
// validation; the bucket is created if needed.
func (e *Emulator) SetLifecycleXML(bucketName string, body []byte) error {
	l, err := parseLifecycle(body)
	if err != nil {
		return err
	}
	assignRuleIDs(l.Rules)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.createBucketLocked(bucketName, false)
	e.buckets[bucketName].lifecycle = l
	return nil
}

// Lifecycle returns the stored configuration as GET would render it.
func (e *Emulator) Lifecycle(bucketName string) ([]byte, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.buckets[bucketName]
	if !ok || b.lifecycle == nil {
		return nil, false
	}
	return b.lifecycle.render(), true
}

// RenderLifecycle parses a lifecycle body and renders it as the server would
// store and return it, without validation (for round-trip tests).
func RenderLifecycle(body []byte) ([]byte, error) {
	l, err := parseLifecycle(body)
	if err != nil {
		return nil, err
	}
	assignRuleIDs(l.Rules)
	return l.render(), nil
}
