package rustfstest

import (
	"sort"
	"strings"
	"time"
)

// A TierRecord is one registered tier as the emulator stores it, including
// the real secrets (tests may compare them; they must not print them).
type TierRecord struct {
	Type         string
	Name         string
	Endpoint     string
	AccessKey    string // azure: the storage account name
	SecretKey    string // azure: the account key
	Bucket       string
	Prefix       string
	Region       string
	StorageClass string
	// Creds is a gcs tier's service-account JSON.
	Creds string
	// SPTenantID, SPClientID and SPClientSecret are an azure tier's spAuth.
	SPTenantID, SPClientID, SPClientSecret string
}

// A TierStat is a seeded transition counter (docs/rustfs-wire.md §1.6).
type TierStat struct {
	TotalSize   uint64
	NumVersions uint64
	NumObjects  uint64
}

type bucket struct {
	name       string
	created    time.Time
	objectLock bool
	versioning string
	lifecycle  *lcConfig
	objects    map[string][]*object // versions of each key, oldest first
	quota      uint64               // hard limit in bytes, 0 for none (admin_quota.go)
}

// Tiers returns a copy of every registered tier, sorted by name, with the
// stored secret keys.
func (e *Emulator) Tiers() []TierRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]TierRecord, 0, len(e.tiers))
	for _, t := range e.tiers {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Tier returns one registered tier.
func (e *Emulator) Tier(name string) (TierRecord, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.tiers[name]
	if !ok {
		return TierRecord{}, false
	}
	return *t, true
}

// SeedTier registers a tier out of band, with no validation and no remote
// probe. The type is stored lowercase.
func (e *Emulator) SeedTier(t TierRecord) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t.Type = strings.ToLower(t.Type)
	e.tiers[t.Name] = &t
}

// SeedTierStats sets the transition counters tier-stats reports for a tier.
func (e *Emulator) SeedTierStats(name string, s TierStat) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stats[name] = s
}

// CreateBucket creates a bucket out of band (no-op if it exists).
func (e *Emulator) CreateBucket(name string, objectLock bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.createBucketLocked(name, objectLock)
}

func (e *Emulator) createBucketLocked(name string, objectLock bool) {
	if _, ok := e.buckets[name]; ok {
		return
	}
	b := &bucket{name: name, created: e.now(), objectLock: objectLock, objects: map[string][]*object{}}
	if objectLock {
		b.versioning = "Enabled" // object lock implies versioning
	}
	e.buckets[name] = b
}

// PutObject stores an object out of band, creating the bucket if needed. On
// a versioned bucket it becomes a new version.
func (e *Emulator) PutObject(bucketName, key string, body []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.createBucketLocked(bucketName, false)
	e.buckets[bucketName].store(key, newObject(body, e.now()))
}

// Objects returns the keys in a bucket that have a current version, sorted.
func (e *Emulator) Objects(bucketName string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.buckets[bucketName]
	if !ok {
		return nil
	}
	return b.keys()
}

// VersionCount returns how many object versions, delete markers included, a
// bucket holds: a probe that leaves a version or a delete marker behind shows
// here and not in Objects.
func (e *Emulator) VersionCount(bucketName string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[bucketName]; ok {
		return b.versionCount()
	}
	return 0
}

// SetVersioning sets a bucket's versioning status out of band ("Enabled" or
// "Suspended"), creating the bucket if needed.
func (e *Emulator) SetVersioning(bucketName, status string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.createBucketLocked(bucketName, false)
	e.buckets[bucketName].versioning = status
}

// MarkTransitioned records that an object now lives on a tier, so the
// reference proof refuses to remove that tier, with or without force (docs/rustfs-wire.md §6).
// It creates the object if needed.
func (e *Emulator) MarkTransitioned(bucketName, key, tier string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.createBucketLocked(bucketName, false)
	b := e.buckets[bucketName]
	if b.head(key) == nil {
		b.store(key, newObject(nil, e.now()))
	}
	b.head(key).transitioned = tier
}

// DeleteObject removes every version of an object out of band.
func (e *Emulator) DeleteObject(bucketName, key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[bucketName]; ok {
		delete(b.objects, key)
	}
}

// BucketVersioning returns the stored versioning status of a bucket.
func (e *Emulator) BucketVersioning(bucketName string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buckets[bucketName]; ok {
		return b.versioning
	}
	return ""
}

// HasBucket reports whether the bucket exists.
func (e *Emulator) HasBucket(bucketName string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.buckets[bucketName]
	return ok
}
