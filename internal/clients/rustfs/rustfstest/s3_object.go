package rustfstest

// Object routes: enough S3 for the tier probes (docs/rustfs-wire.md §18: the
// in-use ListObjectsV2, the probe object) and for seeding a non-empty prefix.

import (
	"crypto/md5" // S3's Content-MD5 is MD5 by definition
	"encoding/base64"
	"encoding/xml"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

type listEntryXML struct {
	Key          string `xml:"Key"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
	Size         int    `xml:"Size"`
	StorageClass string `xml:"StorageClass"`
}

type prefixXML struct {
	Prefix string `xml:"Prefix"`
}

type listResultXML struct {
	XMLName               xml.Name       `xml:"ListBucketResult"`
	Xmlns                 string         `xml:"xmlns,attr"`
	Name                  string         `xml:"Name"`
	Prefix                string         `xml:"Prefix"`
	KeyCount              int            `xml:"KeyCount"`
	MaxKeys               int            `xml:"MaxKeys"`
	Delimiter             string         `xml:"Delimiter,omitempty"`
	IsTruncated           bool           `xml:"IsTruncated"`
	Contents              []listEntryXML `xml:"Contents"`
	CommonPrefixes        []prefixXML    `xml:"CommonPrefixes"`
	EncodingType          string         `xml:"EncodingType,omitempty"`
	NextContinuationToken string         `xml:"NextContinuationToken,omitempty"`
}

// listParams are the ListObjectsV2 query parameters.
type listParams struct {
	prefix, delimiter, after, encoding string
	maxKeys                            int
}

func parseListParams(q url.Values) (listParams, *s3Error) {
	p := listParams{prefix: q.Get("prefix"), delimiter: q.Get("delimiter"), encoding: q.Get("encoding-type"), maxKeys: 1000}
	if v := q.Get("max-keys"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return p, invalidArgument("Argument max-keys must be an integer between 0 and 2147483647")
		}
		p.maxKeys = min(n, 1000)
	}
	p.after = q.Get("start-after")
	if tok := q.Get("continuation-token"); tok != "" {
		b, err := base64.StdEncoding.DecodeString(tok)
		if err != nil {
			return p, invalidArgument("The continuation token provided is incorrect")
		}
		p.after = string(b)
	}
	return p, nil
}

// listObjects is ListObjectsV2 (and a plain GET bucket) with prefix,
// delimiter, max-keys, start-after and continuation tokens.
func (e *Emulator) listObjects(c *call) *s3Error {
	if err := c.authorize("s3:ListBucket"); err != nil {
		return err
	}
	p, err := parseListParams(c.r.URL.Query())
	if err != nil {
		return err
	}
	e.mu.Lock()
	b, ok := e.buckets[c.bucket]
	var res listResultXML
	if ok {
		res = listBucket(b, p)
	}
	e.mu.Unlock()
	if !ok {
		return errNoSuchBucket
	}
	return writeXML(c, res)
}

func listBucket(b *bucket, p listParams) listResultXML {
	res := listResultXML{Xmlns: s3Namespace, Name: b.name, Prefix: p.prefix, MaxKeys: p.maxKeys,
		Delimiter: p.delimiter, EncodingType: p.encoding}
	var keys []string
	for _, k := range b.keys() {
		if strings.HasPrefix(k, p.prefix) && k > p.after {
			keys = append(keys, k)
		}
	}
	seen := map[string]bool{}
	last := ""
	for _, k := range keys {
		cp := commonPrefix(k, p)
		if cp != "" && (seen[cp] || strings.HasPrefix(p.after, cp)) {
			continue
		}
		if res.KeyCount >= p.maxKeys {
			res.IsTruncated = true
			res.NextContinuationToken = base64.StdEncoding.EncodeToString([]byte(last))
			break
		}
		res.KeyCount++
		if cp != "" {
			seen[cp] = true
			res.CommonPrefixes = append(res.CommonPrefixes, prefixXML{encodeKey(cp, p.encoding)})
			last = cp + "\xff"
			continue
		}
		o := b.head(k)
		res.Contents = append(res.Contents, listEntryXML{Key: encodeKey(k, p.encoding),
			LastModified: o.modTime.UTC().Format(lcDateFormat), ETag: o.etag, Size: len(o.body), StorageClass: storageClass(o)})
		last = k
	}
	return res
}

// commonPrefix returns the common prefix k rolls up into, or "".
func commonPrefix(k string, p listParams) string {
	if p.delimiter == "" {
		return ""
	}
	rest := strings.TrimPrefix(k, p.prefix)
	i := strings.Index(rest, p.delimiter)
	if i < 0 {
		return ""
	}
	return p.prefix + rest[:i+len(p.delimiter)]
}

func encodeKey(k, encoding string) string {
	if encoding != "url" {
		return k
	}
	return strings.ReplaceAll(url.QueryEscape(k), "%2F", "/")
}

// storageClass reports a transitioned object's tier as its storage class
// (docs/rustfs-wire.md §8.2, after step 7).
func storageClass(o *object) string {
	if o.transitioned != "" {
		return o.transitioned
	}
	return "STANDARD"
}

// putObject stores a new version. A Content-MD5 header must match the body;
// a versioned bucket answers the version ID (docs/rustfs-wire.md §18.2).
func (e *Emulator) putObject(c *call) *s3Error {
	if err := c.authorize("s3:PutObject"); err != nil {
		return err
	}
	if err := checkContentMD5(c); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.buckets[c.bucket]
	if !ok {
		return errNoSuchBucket
	}
	if err := b.admit(c.key, len(c.body)); err != nil {
		return err
	}
	o := newObject(c.body, e.now())
	b.store(c.key, o)
	c.w.Header().Set("ETag", o.etag)
	switch {
	case b.versioning != "":
		c.w.Header().Set("X-Amz-Version-Id", wireVersionID(o.versionID))
	case e.r2VersionIDs:
		c.w.Header().Set("X-Amz-Version-Id", newVersionID())
	}
	return nil
}

// checkContentMD5 verifies a Content-MD5 header against the body.
func checkContentMD5(c *call) *s3Error {
	v := c.r.Header.Get("Content-Md5")
	if v == "" {
		return nil
	}
	sum := md5.Sum(c.body) // S3's Content-MD5 is MD5 by definition
	if v != base64.StdEncoding.EncodeToString(sum[:]) {
		return errf(http.StatusBadRequest, "BadDigest", "The Content-MD5 you specified did not match what we received.")
	}
	return nil
}

// getObject serves GET and HEAD of the current version or, with versionId,
// of one version; GET honours a single "bytes=a-b" range.
func (e *Emulator) getObject(c *call) *s3Error {
	if err := c.authorize("s3:GetObject"); err != nil {
		return err
	}
	vid, versioned := c.r.URL.Query()["versionId"]
	e.mu.Lock()
	b, ok := e.buckets[c.bucket]
	var o *object
	var bucketVersioning string
	switch {
	case ok && versioned:
		o, bucketVersioning = b.version(c.key, vid[0]), b.versioning
	case ok:
		o, bucketVersioning = b.head(c.key), b.versioning
	}
	e.mu.Unlock()
	switch {
	case !ok:
		return errNoSuchBucket
	case o == nil && versioned:
		return errNoSuchVersion
	case o == nil, o.deleteMarker:
		return errNoSuchKey
	}
	h := c.w.Header()
	if bucketVersioning != "" || versioned {
		h.Set("X-Amz-Version-Id", wireVersionID(o.versionID))
	}
	h.Set("ETag", o.etag)
	h.Set("Last-Modified", o.modTime.UTC().Format(http.TimeFormat))
	h.Set("X-Amz-Storage-Class", storageClass(o))
	return writeBody(c, o.body)
}

// deleteObject: 204 whether or not the key existed. Without versionId a
// versioned bucket gets a delete marker; with it, exactly that version goes.
func (e *Emulator) deleteObject(c *call) *s3Error {
	if err := c.authorize("s3:DeleteObject"); err != nil {
		return err
	}
	vid, exact := c.r.URL.Query()["versionId"]
	e.mu.Lock()
	b, ok := e.buckets[c.bucket]
	var marker *object
	switch {
	case ok && exact:
		b.removeVersion(c.key, vid[0])
	case ok:
		marker = b.remove(c.key, e.now())
	}
	e.mu.Unlock()
	if !ok {
		return errNoSuchBucket
	}
	switch {
	case exact:
		c.w.Header().Set("X-Amz-Version-Id", vid[0])
	case marker != nil:
		c.w.Header().Set("X-Amz-Delete-Marker", "true")
		c.w.Header().Set("X-Amz-Version-Id", wireVersionID(marker.versionID))
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}
