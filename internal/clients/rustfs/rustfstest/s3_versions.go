package rustfstest

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

type versionXML struct {
	Key          string `xml:"Key"`
	VersionID    string `xml:"VersionId"`
	IsLatest     bool   `xml:"IsLatest"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag,omitempty"`
	Size         *int   `xml:"Size,omitempty"`
	StorageClass string `xml:"StorageClass,omitempty"`
}

type listVersionsXML struct {
	XMLName             xml.Name     `xml:"ListVersionsResult"`
	Xmlns               string       `xml:"xmlns,attr"`
	Name                string       `xml:"Name"`
	Prefix              string       `xml:"Prefix"`
	KeyMarker           string       `xml:"KeyMarker"`
	VersionIDMarker     string       `xml:"VersionIdMarker"`
	MaxKeys             int          `xml:"MaxKeys"`
	IsTruncated         bool         `xml:"IsTruncated"`
	Versions            []versionXML `xml:"Version"`
	DeleteMarkers       []versionXML `xml:"DeleteMarker"`
	NextKeyMarker       string       `xml:"NextKeyMarker,omitempty"`
	NextVersionIDMarker string       `xml:"NextVersionIdMarker,omitempty"`
}

// listObjectVersions is ListObjectVersions (GET ?versions), which a GA RustFS
// sends to a tier's remote during every probe (docs/rustfs-wire.md §18.2):
// keys in order, each key's versions newest first, paged by key-marker and
// version-id-marker. A delimiter is not modelled (RustFS sends none).
func (e *Emulator) listObjectVersions(c *call) *s3Error {
	if err := c.authorize("s3:ListBucketVersions"); err != nil {
		return err
	}
	q := c.r.URL.Query()
	if q.Get("delimiter") != "" {
		return errNotImplemented
	}
	p, err := parseListParams(q)
	if err != nil {
		return err
	}
	e.mu.Lock()
	b, ok := e.buckets[c.bucket]
	var res listVersionsXML
	if ok {
		res = listVersions(b, p, q.Get("key-marker"), q.Get("version-id-marker"))
	}
	e.mu.Unlock()
	if !ok {
		return errNoSuchBucket
	}
	return writeXML(c, res)
}

func listVersions(b *bucket, p listParams, keyMarker, vidMarker string) listVersionsXML {
	res := listVersionsXML{Xmlns: s3Namespace, Name: b.name, Prefix: p.prefix, KeyMarker: keyMarker,
		VersionIDMarker: vidMarker, MaxKeys: p.maxKeys}
	n := 0
	for _, k := range sortedKeys(b) {
		if !strings.HasPrefix(k, p.prefix) || k < keyMarker {
			continue
		}
		vs := b.objects[k]
		for i := len(vs) - 1; i >= 0; i-- {
			v := vs[i]
			if k == keyMarker && !afterMarker(vs, i, vidMarker) {
				continue
			}
			if n == p.maxKeys {
				res.IsTruncated = true
				return res
			}
			n++
			entry := versionXML{Key: encodeKey(k, p.encoding), VersionID: wireVersionID(v.versionID), IsLatest: i == len(vs)-1,
				LastModified: v.modTime.UTC().Format(lcDateFormat)}
			res.NextKeyMarker, res.NextVersionIDMarker = k, entry.VersionID
			if v.deleteMarker {
				res.DeleteMarkers = append(res.DeleteMarkers, entry)
				continue
			}
			size := len(v.body)
			entry.ETag, entry.Size, entry.StorageClass = v.etag, &size, storageClass(v)
			res.Versions = append(res.Versions, entry)
		}
	}
	res.NextKeyMarker, res.NextVersionIDMarker = "", ""
	return res
}

// afterMarker reports whether version i of a key comes after the version
// vidMarker names in newest-first order; without one, no version of the
// marker key does.
func afterMarker(vs []*object, i int, vidMarker string) bool {
	if vidMarker == "" {
		return false
	}
	for j := len(vs) - 1; j > i; j-- {
		if wireVersionID(vs[j].versionID) == vidMarker {
			return true
		}
	}
	return false
}

func sortedKeys(b *bucket) []string {
	keys := make([]string, 0, len(b.objects))
	for k := range b.objects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeBody answers a body, or the part of it a "bytes=a-b" Range asks for.
func writeBody(c *call, body []byte) *s3Error {
	start, end, ranged := parseRange(c.r.Header.Get("Range"), len(body))
	if ranged {
		if start >= len(body) {
			return errf(http.StatusRequestedRangeNotSatisfiable, "InvalidRange", "The requested range is not satisfiable")
		}
		c.w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, end, len(body)))
		body = body[start : end+1]
	}
	c.w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if ranged {
		c.w.WriteHeader(http.StatusPartialContent)
	}
	if c.r.Method == http.MethodGet {
		_, _ = c.w.Write(body)
	}
	return nil
}

// parseRange parses "bytes=a-b" (b clipped to the body); anything else is
// no range.
func parseRange(v string, size int) (start, end int, ok bool) {
	spec, found := strings.CutPrefix(v, "bytes=")
	a, z, dash := strings.Cut(spec, "-")
	if !found || !dash {
		return 0, 0, false
	}
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(z)
	if err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, false
	}
	return start, min(end, size-1), true
}
