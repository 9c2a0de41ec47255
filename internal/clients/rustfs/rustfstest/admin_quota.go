package rustfstest

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"
)

// Bucket quota routes (docs/rustfs-wire.md §21; quota.rs ›
// register_quota_route).
const (
	RouteGetQuota   = "quota.get"
	RouteSetQuota   = "quota.set"
	RouteClearQuota = "quota.clear"
)

// The actions the quota routes check (docs/rustfs-wire.md §21.1).
const (
	actionSetBucketQuota = "admin:SetBucketQuota"
	actionGetBucketQuota = "s3:GetBucketQuota"
)

// quotaRoutes are the /quota/{bucket} routes by method.
var quotaRoutes = map[string]string{
	http.MethodGet: RouteGetQuota, http.MethodPut: RouteSetQuota, http.MethodDelete: RouteClearQuota,
}

func init() {
	maps.Copy(handlers, map[string]handler{
		RouteGetQuota: (*Emulator).getQuota, RouteSetQuota: (*Emulator).setQuota, RouteClearQuota: (*Emulator).clearQuota,
	})
	writeRoutes[RouteSetQuota], writeRoutes[RouteClearQuota] = true, true
}

// quotaRoute maps "quota/{bucket}" (the admin path after /v3/) to a route
// and the bucket, or reports that it is not a quota path.
func quotaRoute(method, rest string) (route, bucketName string, ok bool) {
	name, found := strings.CutPrefix(rest, "quota/")
	if !found || name == "" || strings.Contains(name, "/") {
		return "", "", false
	}
	r, ok := quotaRoutes[method]
	if !ok {
		return RouteAdminUnknown, "", true
	}
	return r, name, true
}

// quotaAnswer is BucketQuotaResponse: size is the usage (docs/rustfs-wire.md §21.2, §21.3).
type quotaAnswer struct {
	Bucket    string  `json:"bucket"`
	Quota     *uint64 `json:"quota"`
	Size      uint64  `json:"size"`
	QuotaType string  `json:"quota_type"`
}

// quotaRequest is CompatibleBucketQuotaRequest (parse_set_bucket_quota_request).
type quotaRequest struct {
	Quota     *uint64 `json:"quota"`
	Size      *uint64 `json:"size"`
	QuotaType *string `json:"quota_type"`
	QuotaTyp2 *string `json:"quotatype"`
}

// limit returns the requested limit: size, else quota, each only when
// greater than 0, so 0 sets no limit (docs/rustfs-wire.md §21.2).
func (q quotaRequest) limit() uint64 {
	for _, v := range []*uint64{q.Size, q.Quota} {
		if v != nil && *v > 0 {
			return *v
		}
	}
	return 0
}

func (q quotaRequest) hard() bool {
	for _, t := range []*string{q.QuotaType, q.QuotaTyp2} {
		if t != nil {
			return strings.EqualFold(*t, "HARD")
		}
	}
	return true
}

// setQuota: a missing bucket answers 500 before the body is read; 0 or an
// empty body removes the limit; a type other than HARD is 400
// InvalidArgument.
func (e *Emulator) setQuota(c *call) *s3Error {
	if err := c.authorize(actionSetBucketQuota); err != nil {
		return err
	}
	if !e.hasBucket(c.seg) {
		return errf(http.StatusInternalServerError, "InternalError", "failed to capture bucket incarnation: bucket not found")
	}
	var q quotaRequest
	if len(c.body) > 0 {
		if err := json.Unmarshal(c.body, &q); err != nil {
			return invalidRequest("invalid JSON")
		}
	}
	if !q.hard() {
		return invalidArgument("Only HARD quota type is supported")
	}
	return e.answerQuota(c, q.limit())
}

// clearQuota removes the limit; a missing bucket answers 500.
func (e *Emulator) clearQuota(c *call) *s3Error {
	if err := c.authorize(actionSetBucketQuota); err != nil {
		return err
	}
	if !e.hasBucket(c.seg) {
		return errf(http.StatusInternalServerError, "InternalError", "failed to capture bucket incarnation: bucket not found")
	}
	return e.answerQuota(c, 0)
}

// getQuota answers the limit (null for none) and the usage; a missing
// bucket is 404 NoSuchBucket.
func (e *Emulator) getQuota(c *call) *s3Error {
	c.bucket = c.seg
	if err := c.authorize(actionGetBucketQuota); err != nil {
		return err
	}
	e.mu.Lock()
	b, ok := e.buckets[c.seg]
	var a quotaAnswer
	if ok {
		a = b.quotaAnswer()
	}
	e.mu.Unlock()
	if !ok {
		return errf(http.StatusNotFound, "NoSuchBucket", "bucket not found: "+c.seg)
	}
	return writeJSON(c, a)
}

// answerQuota stores limit (0: none) and answers the quota body.
func (e *Emulator) answerQuota(c *call, limit uint64) *s3Error {
	e.mu.Lock()
	b := e.buckets[c.seg]
	b.quota = limit
	a := b.quotaAnswer()
	e.mu.Unlock()
	return writeJSON(c, a)
}

func (e *Emulator) hasBucket(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.buckets[name]
	return ok
}

func (b *bucket) quotaAnswer() quotaAnswer {
	a := quotaAnswer{Bucket: b.name, Size: b.usage(), QuotaType: "HARD"}
	if b.quota > 0 {
		q := b.quota
		a.Quota = &q
	}
	return a
}

// usage is the bytes of every version of every key, noncurrent versions
// included; a delete marker holds none (docs/rustfs-wire.md §21.5).
func (b *bucket) usage() uint64 {
	var n uint64
	for _, vs := range b.objects {
		for _, o := range vs {
			n += uint64(len(o.body))
		}
	}
	return n
}

// admit refuses a PUT of size bytes to key that would take the bucket over
// its hard limit with 400 InvalidRequest (docs/rustfs-wire.md §21.5). The
// growth is the new size less the version it replaces: the null version on
// a bucket not versioned, none on a versioned one.
func (b *bucket) admit(key string, size int) *s3Error {
	if b.quota == 0 {
		return nil
	}
	var old uint64
	if b.versioning != "Enabled" {
		if o := b.version(key, ""); o != nil {
			old = uint64(len(o.body))
		}
	}
	if b.usage()-old+uint64(size) > b.quota {
		return invalidRequest("Bucket quota exceeded")
	}
	return nil
}

// SetBucketQuota sets a bucket's hard limit out of band (0: none).
func (e *Emulator) SetBucketQuota(bucketName string, limit uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[bucketName]; ok {
		b.quota = limit
	}
}

// BucketQuota returns a bucket's hard limit, 0 for none.
func (e *Emulator) BucketQuota(bucketName string) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[bucketName]; ok {
		return b.quota
	}
	return 0
}

// BucketUsage returns the usage the quota routes report for a bucket.
func (e *Emulator) BucketUsage(bucketName string) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[bucketName]; ok {
		return b.usage()
	}
	return 0
}
