package rustfstest

import (
	"maps"
	"net/http"
)

// RouteDeleteBucket is DELETE /{bucket} (docs/rustfs-wire.md §22).
const RouteDeleteBucket = "bucket.delete"

func init() {
	maps.Copy(handlers, map[string]handler{RouteDeleteBucket: (*Emulator).deleteBucket})
	writeRoutes[RouteDeleteBucket] = true
}

var errBucketNotEmpty = errf(http.StatusConflict, "BucketNotEmpty", "The bucket you tried to delete is not empty")

// forceDeleteHeaders make RustFS delete a bucket with everything in it
// (docs/rustfs-wire.md §22.1).
var forceDeleteHeaders = []string{"X-Rustfs-Force-Delete", "X-Minio-Force-Delete"}

// deleteBucket deletes a bucket that holds no version and no delete
// marker, else answers 409 BucketNotEmpty, as RustFS's non-recursive
// removal does (docs/rustfs-wire.md §22.2). A force-delete header is
// answered 501: the emulator does not model it, and a test sees it sent.
func (e *Emulator) deleteBucket(c *call) *s3Error {
	if err := c.authorize("s3:DeleteBucket"); err != nil {
		return err
	}
	for _, h := range forceDeleteHeaders {
		if c.r.Header.Get(h) != "" {
			return errNotImplemented
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.buckets[c.bucket]
	switch {
	case !ok:
		return errNoSuchBucket
	case b.versionCount() > 0:
		return errBucketNotEmpty
	}
	delete(e.buckets, c.bucket)
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// EmptyBucket removes every version and delete marker of a bucket out of
// band, as a user emptying it would.
func (e *Emulator) EmptyBucket(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[name]; ok {
		clear(b.objects)
	}
}

// RemoveObject deletes key without a version ID out of band, as an S3
// DELETE does: a versioned bucket gets a delete marker.
func (e *Emulator) RemoveObject(bucketName, key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[bucketName]; ok {
		b.remove(key, e.now())
	}
}
