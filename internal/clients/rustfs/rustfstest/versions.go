package rustfstest

import (
	"crypto/md5" // S3 ETags are MD5 by definition
	"encoding/hex"
	"fmt"
	"sort"
	"sync/atomic"
	"time"
)

// Object versions, enough S3 for what a GA RustFS asks of a tier's remote
// (docs/rustfs-wire.md §18.2): PUT answers a version ID on a versioned
// bucket, ListObjectVersions and GetBucketVersioning see every version, and
// GET and DELETE take a versionId. A bucket whose versioning was never set
// keeps one null version per key.

// An object is one version of a key: its data, or a delete marker.
type object struct {
	body         []byte
	modTime      time.Time
	etag         string
	versionID    string // "" is the null version
	deleteMarker bool
	transitioned string // tier name the object was transitioned to (docs/rustfs-wire.md §6 reference proof)
}

func newObject(body []byte, at time.Time) *object {
	sum := md5.Sum(body)
	return &object{body: append([]byte(nil), body...), modTime: at, etag: `"` + hex.EncodeToString(sum[:]) + `"`}
}

var versionSeq atomic.Uint64

// newVersionID returns a fresh, UUID-shaped version ID.
func newVersionID() string {
	n := versionSeq.Add(1)
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", uint32(n>>48), n&0xffffffffffff)
}

// wireVersionID renders a version ID as S3 does: "null" for the null version.
func wireVersionID(id string) string {
	if id == "" {
		return "null"
	}
	return id
}

// head returns the current version of key: the newest version, unless it is
// a delete marker or there is none.
func (b *bucket) head(key string) *object {
	vs := b.objects[key]
	if len(vs) == 0 || vs[len(vs)-1].deleteMarker {
		return nil
	}
	return vs[len(vs)-1]
}

// keys returns the keys that have a current version, sorted.
func (b *bucket) keys() []string {
	out := make([]string, 0, len(b.objects))
	for k := range b.objects {
		if b.head(k) != nil {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// store adds o as the newest version of key. A bucket whose versioning was
// never set, or is suspended, replaces the null version; an enabled bucket
// gives o a new version ID.
func (b *bucket) store(key string, o *object) {
	if b.versioning == "Enabled" {
		o.versionID = newVersionID()
		b.objects[key] = append(b.objects[key], o)
		return
	}
	o.versionID = ""
	b.objects[key] = append(b.dropVersion(key, ""), o)
}

// remove deletes key without a version ID: an unversioned bucket forgets it,
// a versioned one gets a delete marker, which it returns.
func (b *bucket) remove(key string, at time.Time) *object {
	switch b.versioning {
	case "Enabled":
		m := &object{modTime: at, versionID: newVersionID(), deleteMarker: true}
		b.objects[key] = append(b.objects[key], m)
		return m
	case "Suspended":
		m := &object{modTime: at, deleteMarker: true}
		b.objects[key] = append(b.dropVersion(key, ""), m)
		return m
	}
	delete(b.objects, key)
	return nil
}

// version returns one version of key ("" or "null" is the null version).
func (b *bucket) version(key, id string) *object {
	if id == "null" {
		id = ""
	}
	for _, v := range b.objects[key] {
		if v.versionID == id {
			return v
		}
	}
	return nil
}

// removeVersion deletes exactly one version of key and reports whether it
// existed.
func (b *bucket) removeVersion(key, id string) bool {
	if id == "null" {
		id = ""
	}
	if b.version(key, id) == nil {
		return false
	}
	if vs := b.dropVersion(key, id); len(vs) > 0 {
		b.objects[key] = vs
	} else {
		delete(b.objects, key)
	}
	return true
}

// dropVersion returns the versions of key without the one with id.
func (b *bucket) dropVersion(key, id string) []*object {
	var out []*object
	for _, v := range b.objects[key] {
		if v.versionID != id {
			out = append(out, v)
		}
	}
	return out
}

// versionCount returns how many versions (delete markers included) the
// bucket holds.
func (b *bucket) versionCount() int {
	n := 0
	for _, vs := range b.objects {
		n += len(vs)
	}
	return n
}
