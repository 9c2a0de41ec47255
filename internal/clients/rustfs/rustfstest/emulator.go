// Package rustfstest is an in-process emulator of the RustFS wire contract
// in docs/rustfs-wire.md: SigV4 checking, the admin tier routes, and
// the S3 bucket, object, versioning and lifecycle routes, with RustFS's error
// codes and validation in two modes (1.0.0-rc and 1.0.x GA). Each behaviour
// cites the section of docs/rustfs-wire.md it implements ("§n"). The admin info
// route follows the repository's docs/rustfs-wire.md §15, cited by path; the
// service-account routes and session-policy enforcement follow its §16, the
// IAM user and canned-policy routes its §20.
//
// The package deliberately does not import the client package: it has its own
// wire structs and its own signature verification, so it checks the client's
// encoding independently. It is for tests and the rustfs-emulator command; it
// must never be linked into the provider.
package rustfstest

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// A Mode selects which RustFS release the emulator reproduces.
type Mode int

const (
	// ModeGA is RustFS 1.0.x GA: ModeRC plus the differences listed in
	// docs/rustfs-wire.md §12.10 (§4, §6, §10). It is the default.
	ModeGA Mode = iota
	// ModeRC is RustFS 1.0.0-rc.3, "rc" in docs/rustfs-wire.md §0.
	ModeRC
)

// String returns "ga" or "rc".
func (m Mode) String() string {
	if m == ModeRC {
		return "rc"
	}
	return "ga"
}

// ParseMode parses "ga" or "rc" (case-insensitive).
func ParseMode(s string) (Mode, bool) {
	switch strings.ToLower(s) {
	case "ga", "":
		return ModeGA, true
	case "rc":
		return ModeRC, true
	}
	return ModeGA, false
}

// The default root credentials (RustFS's own defaults are rustfsadmin/rustfsadmin).
const (
	DefaultAccessKey = "rustfsadmin"
	DefaultSecretKey = "rustfsadmin-secret"
	DefaultRegion    = "us-east-1"
)

// An Emulator is the state and behaviour of one emulated RustFS server. All
// state is guarded by mu; outbound calls to remote tiers are made without it.
type Emulator struct {
	mu        sync.Mutex
	mode      Mode
	region    string
	root      credential
	users     map[string]user
	accounts  map[string]*serviceAccount // service accounts by access key (docs/rustfs-wire.md §16)
	policies  map[string]*cannedPolicy   // canned IAM policies by name (docs/rustfs-wire.md §20)
	now       func() time.Time
	tiers     map[string]*TierRecord
	buckets   map[string]*bucket
	stats     map[string]TierStat
	inventory string // GA tier-stats inventory status; "" is accounted (admin_inventory.go)
	dropped   map[string]bool
	counts    map[string]int
	writes    int
	requests  []RequestRecord
	faults    map[string]*Fault
	logf      func(format string, args ...any)
	remote    *http.Client
	aliases   map[string]string
	vhosts    []string
	probeWait time.Duration
	// r2VersionIDs makes PUTs answer a version ID on an unversioned bucket.
	r2VersionIDs bool
	// unprobed and probed are the tier types whose GA backend was made
	// unable (WithoutCandidateProbe) or able (WithCandidateProbe) to find
	// its probe object, against the default of cannotProbeByDefault.
	unprobed, probed map[string]bool
	// mutating are the tiers an add or edit is working on.
	mutating map[string]bool
	// tls makes NewServer serve HTTPS.
	tls bool
	// deploymentID is what the info route reports (docs/rustfs-wire.md §15.3).
	deploymentID string
}

type credential struct{ accessKey, secretKey string }

// A user is a regular IAM user: one made with WithUser holds an action list
// (the emulator's shorthand for a policy), one made through add-user holds
// canned policies mapped by name (docs/rustfs-wire.md §20).
type user struct {
	secretKey string
	actions   []string
	status    string    // "off" when disabled; "" and "on" are enabled
	policies  []string  // mapped canned policy names
	memberOf  []string  // group names, shown by user-info only
	updated   time.Time // last change, for user-info
}

// An Option configures an Emulator.
type Option func(*Emulator)

// WithMode selects the RustFS release to reproduce (default ModeGA).
func WithMode(m Mode) Option { return func(e *Emulator) { e.mode = m } }

// WithRootCredentials sets the root (owner) credentials, which are allowed
// every action (docs/rustfs-wire.md §7.2). Default DefaultAccessKey/DefaultSecretKey.
func WithRootCredentials(accessKey, secretKey string) Option {
	return func(e *Emulator) { e.root = credential{accessKey, secretKey} }
}

// WithUser adds a non-root IAM user allowed only the listed actions, such as
// "admin:SetTier", "admin:ListTier", "admin:*", "s3:PutBucketLifecycle" or
// "s3:*" (docs/rustfs-wire.md §7.2, §8.1). A trailing "*" matches any suffix.
func WithUser(accessKey, secretKey string, actions ...string) Option {
	return func(e *Emulator) { e.users[accessKey] = user{secretKey: secretKey, actions: actions} }
}

// SetUser adds or replaces a non-root user on a running emulator, as
// WithUser does at start; for example to grant a permission later.
func (e *Emulator) SetUser(accessKey, secretKey string, actions ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.users[accessKey] = user{secretKey: secretKey, actions: actions}
}

// WithClock sets the clock used for signature skew checks, object times and
// the clear-tier token.
func WithClock(now func() time.Time) Option { return func(e *Emulator) { e.now = now } }

// WithRegion sets the server region that GetBucketLocation reports
// (RustFS reports its configured region for every bucket; default us-east-1).
func WithRegion(region string) Option { return func(e *Emulator) { e.region = region } }

// WithDroppedLifecycleFields makes lifecycle PUT silently drop the named
// elements before storing, as some RustFS versions do. Known names:
// DelMarkerExpiration, ExpiredObjectAllVersions, ExpiredObjectDeleteMarker,
// NewerNoncurrentVersions, ObjectSizeGreaterThan, ObjectSizeLessThan,
// NoncurrentVersionTransition, AbortIncompleteMultipartUpload, Tag.
func WithDroppedLifecycleFields(fields ...string) Option {
	return func(e *Emulator) {
		for _, f := range fields {
			e.dropped[f] = true
		}
	}
}

// WithRequestLog logs every request (method, path, route, status; never
// bodies or query strings) through logf.
func WithRequestLog(logf func(format string, args ...any)) Option {
	return func(e *Emulator) { e.logf = logf }
}

// WithRemoteAlias makes outbound tier calls to host (host or host:port, as in
// a tier endpoint) connect to addr instead. It lets a tier use a public
// name, such as Wasabi's s3.wasabisys.com, while the remote is another
// emulator. Servers of this process are reachable without it, under their
// test host names (Server.TierURL).
func WithRemoteAlias(host, addr string) Option { return func(e *Emulator) { e.aliases[host] = addr } }

// WithVirtualHostDomain makes the emulator also serve virtual-host style
// requests, "<bucket>.<domain>", as the aliyun, tencent, huaweicloud and
// azure tier backends send them (docs/rustfs-wire.md §18). A Server serves
// them under its test host name without this option.
func WithVirtualHostDomain(domain string) Option {
	return func(e *Emulator) { e.vhosts = append(e.vhosts, domain) }
}

// WithTLS makes NewServer serve HTTPS with the net/http/httptest
// certificate. Every emulator of this process trusts it as a tier remote.
func WithTLS() Option { return func(e *Emulator) { e.tls = true } }

// WithR2PutVersionIDs makes the emulator answer like a Cloudflare R2 bucket
// as a tier's remote: every object PUT answers an x-amz-version-id although
// the bucket reports no versioning and lists the object as its null version.
// A GA RustFS refuses such a remote at add (docs/rustfs-wire.md §13.7,
// rustfs/rustfs#7999).
func WithR2PutVersionIDs() Option { return func(e *Emulator) { e.r2VersionIDs = true } }

// cannotProbeByDefault are the tier types whose backend does not implement
// the candidate probe a GA add and credential edit run: at RustFS 20d126649
// only s3, rustfs, minio and r2 implement probe_transition_candidate, and
// every other backend answers Unsupported (docs/rustfs-wire.md §4.3).
var cannotProbeByDefault = map[string]bool{
	"wasabi": true, "aliyun": true, "tencent": true, "huaweicloud": true, "azure": true, "gcs": true,
}

// WithoutCandidateProbe makes the GA backends of the given tier types
// unable to find their probe object as well: every GA add and credential
// edit of such a tier then fails with "Remote tier probe outcome is
// uncertain" (docs/rustfs-wire.md §4.3). wasabi, aliyun, tencent,
// huaweicloud, azure and gcs are unable by default.
func WithoutCandidateProbe(types ...string) Option {
	return func(e *Emulator) {
		for _, t := range types {
			e.unprobed[t] = true
		}
	}
}

// WithCandidateProbe makes the GA backends of the given tier types find
// their probe object as s3's does, as a RustFS release newer than the
// source docs/rustfs-wire.md §4.3 reads may (a later copy of the azure
// backend implements it). It models a release, not RustFS 1.0.0.
func WithCandidateProbe(types ...string) Option {
	return func(e *Emulator) {
		for _, t := range types {
			e.probed[t] = true
		}
	}
}

// cannotProbe reports whether the GA backend of typ answers Unsupported to
// the candidate probe.
func (e *Emulator) cannotProbe(typ string) bool {
	return e.unprobed[typ] || cannotProbeByDefault[typ] && !e.probed[typ]
}

// WithProbeTimeout bounds the remote validation of add, edit, verify and remove (RustFS: 30 s,
// docs/rustfs-wire.md §4.4, TIER_REMOTE_VALIDATION_TIMEOUT).
func WithProbeTimeout(d time.Duration) Option { return func(e *Emulator) { e.probeWait = d } }

// New returns an emulator that is not serving yet; see Handler and NewServer.
func New(opts ...Option) *Emulator {
	e := &Emulator{
		mode: ModeGA, region: DefaultRegion, root: credential{DefaultAccessKey, DefaultSecretKey},
		users: map[string]user{}, now: time.Now, tiers: map[string]*TierRecord{}, buckets: map[string]*bucket{},
		stats: map[string]TierStat{}, dropped: map[string]bool{}, counts: map[string]int{}, faults: map[string]*Fault{},
		aliases: map[string]string{}, probeWait: 30 * time.Second, deploymentID: newDeploymentID(),
		accounts: map[string]*serviceAccount{}, policies: map[string]*cannedPolicy{},
		unprobed: map[string]bool{}, probed: map[string]bool{}, mutating: map[string]bool{},
	}
	for _, o := range opts {
		o(e)
	}
	e.remote = &http.Client{Transport: e.remoteTransport()}
	return e
}

// Mode returns the emulated release.
func (e *Emulator) Mode() Mode { return e.mode }
