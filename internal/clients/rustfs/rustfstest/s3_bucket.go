package rustfstest

// Bucket routes (docs/rustfs-wire.md §17): create, head, location and
// versioning follow rustfs/src/app/bucket_usecase.rs, object lock
// rustfs/src/storage/ecfs.rs, at the rc commit of docs/rustfs-wire.md §0.

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"regexp"
	"sort"
	"strings"
)

const s3Namespace = "http://s3.amazonaws.com/doc/2006-03-01/"

var bucketNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// listBuckets answers GET / with every bucket, or, without
// s3:ListAllMyBuckets, with the buckets the caller may list or locate, and
// AccessDenied when there are none (bucket_usecase.rs ›
// execute_list_buckets; docs/rustfs-wire.md §16.7).
func (e *Emulator) listBuckets(c *call) *s3Error {
	all := c.who.allowed("s3:ListAllMyBuckets")
	// access.rs › prepare_list_buckets_iam_authorization asks per bucket
	// with prefix "" and delimiter "/".
	visibility := map[string][]string{"prefix": {""}, "delimiter": {"/"}}
	type entry struct {
		Name         string `xml:"Name"`
		CreationDate string `xml:"CreationDate"`
	}
	var out struct {
		XMLName xml.Name `xml:"ListAllMyBucketsResult"`
		Xmlns   string   `xml:"xmlns,attr"`
		Buckets []entry  `xml:"Buckets>Bucket"`
	}
	out.Xmlns = s3Namespace
	e.mu.Lock()
	for _, b := range e.buckets {
		if all || c.who.allowedOn(accessRequest{action: "s3:ListBucket", bucket: b.name, conditions: visibility}) ||
			c.who.allowedOn(accessRequest{action: "s3:GetBucketLocation", bucket: b.name, conditions: visibility}) {
			out.Buckets = append(out.Buckets, entry{b.name, b.created.UTC().Format(lcDateFormat)})
		}
	}
	e.mu.Unlock()
	if !all && len(out.Buckets) == 0 {
		return errAccessDenied
	}
	sort.Slice(out.Buckets, func(i, j int) bool { return out.Buckets[i].Name < out.Buckets[j].Name })
	return writeXML(c, out)
}

// headBucket: 200, or 404 with no body.
func (e *Emulator) headBucket(c *call) *s3Error {
	if err := c.authorize("s3:ListBucket"); err != nil {
		return err
	}
	if _, ok := e.bucketLock(c.bucket); !ok {
		return errNoSuchBucket
	}
	return nil
}

// createBucket: x-amz-bucket-object-lock-enabled: true enables object lock
// (and versioning); the LocationConstraint is parsed but RustFS keeps one
// server-wide region. Re-creating by the owner is 200, by anyone else 409
// BucketAlreadyExists (execute_create_bucket).
func (e *Emulator) createBucket(c *call) *s3Error {
	if err := c.authorize("s3:CreateBucket"); err != nil {
		return err
	}
	if !bucketNameRE.MatchString(c.bucket) || strings.Contains(c.bucket, "..") {
		return errInvalidBucketName
	}
	if len(bytes.TrimSpace(c.body)) > 0 {
		var cfg struct {
			LocationConstraint string `xml:"LocationConstraint"`
		}
		if xml.Unmarshal(c.body, &cfg) != nil {
			return errMalformedXML
		}
	}
	lock := strings.EqualFold(c.r.Header.Get("X-Amz-Bucket-Object-Lock-Enabled"), "true")
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, exists := e.buckets[c.bucket]; exists && !c.who.root {
		return errf(http.StatusConflict, "BucketAlreadyExists",
			"The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.")
	}
	e.createBucketLocked(c.bucket, lock)
	c.w.Header().Set("Location", "/"+c.bucket)
	return nil
}

// bucketLocation reports the server region for every bucket.
func (e *Emulator) bucketLocation(c *call) *s3Error {
	if err := c.authorize("s3:GetBucketLocation"); err != nil {
		return err
	}
	if _, ok := e.bucketLock(c.bucket); !ok {
		return errNoSuchBucket
	}
	return writeXML(c, struct {
		XMLName  xml.Name `xml:"LocationConstraint"`
		Xmlns    string   `xml:"xmlns,attr"`
		Location string   `xml:",chardata"`
	}{Xmlns: s3Namespace, Location: e.region})
}

// objectLockConfig: the configuration when enabled at create time, else 404
// ObjectLockConfigurationNotFoundError.
func (e *Emulator) objectLockConfig(c *call) *s3Error {
	if err := c.authorize("s3:GetBucketObjectLockConfiguration"); err != nil {
		return err
	}
	lock, ok := e.bucketLock(c.bucket)
	switch {
	case !ok:
		return errNoSuchBucket
	case !lock:
		return errNoObjectLock
	}
	return writeXML(c, struct {
		XMLName xml.Name `xml:"ObjectLockConfiguration"`
		Xmlns   string   `xml:"xmlns,attr"`
		Enabled string   `xml:"ObjectLockEnabled"`
	}{Xmlns: s3Namespace, Enabled: "Enabled"})
}

type versioningXML struct {
	XMLName xml.Name `xml:"VersioningConfiguration"`
	Xmlns   string   `xml:"xmlns,attr,omitempty"`
	Status  string   `xml:"Status,omitempty"`
}

func (e *Emulator) getVersioning(c *call) *s3Error {
	if err := c.authorize("s3:GetBucketVersioning"); err != nil {
		return err
	}
	e.mu.Lock()
	b, ok := e.buckets[c.bucket]
	var status string
	if ok {
		status = b.versioning
	}
	e.mu.Unlock()
	if !ok {
		return errNoSuchBucket
	}
	return writeXML(c, versioningXML{Xmlns: s3Namespace, Status: status})
}

// putVersioning: an invalid status is 400 InvalidArgument; suspending an
// object-lock bucket is 409 InvalidBucketState (validate_bucket_versioning_update).
func (e *Emulator) putVersioning(c *call) *s3Error {
	if err := c.authorize("s3:PutBucketVersioning"); err != nil {
		return err
	}
	var v versioningXML
	if xml.Unmarshal(c.body, &v) != nil {
		return errMalformedXML
	}
	if v.Status != "" && v.Status != "Enabled" && v.Status != "Suspended" {
		return invalidArgument("bucket versioning configuration has an invalid status")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.buckets[c.bucket]
	switch {
	case !ok:
		return errNoSuchBucket
	case b.objectLock && v.Status == "Suspended":
		return errf(http.StatusConflict, "InvalidBucketState",
			"An Object Lock configuration is present on this bucket, versioning cannot be suspended.")
	}
	if v.Status != "" {
		b.versioning = v.Status
	}
	return nil
}
