package rustfstest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
)

// A call is one request being served.
type call struct {
	w       http.ResponseWriter
	r       *http.Request
	route   string
	seg     string // raw {tiername} segment of admin tier routes
	bucket  string
	key     string
	body    []byte
	bodyBad bool // body unreadable, too large, or not matching x-amz-content-sha256
	compat  bool // the admin path came in on /minio/admin (docs/rustfs-wire.md §7.4, §11)
	who     *identity
	reqID   string
}

type handler func(e *Emulator, c *call) *s3Error

var handlers = map[string]handler{
	RouteListTiers: (*Emulator).listTiers, RouteAddTier: (*Emulator).addTier, RouteEditTier: (*Emulator).editTier,
	RouteRemoveTier: (*Emulator).removeTier, RouteVerifyTier: (*Emulator).verifyTier,
	RouteTierStats: (*Emulator).tierStats, RouteClearTiers: (*Emulator).clearTiers, RouteServerInfo: (*Emulator).serverInfo,
	RouteListBuckets: (*Emulator).listBuckets, RouteHeadBucket: (*Emulator).headBucket,
	RouteCreateBucket: (*Emulator).createBucket, RouteBucketLocation: (*Emulator).bucketLocation,
	RouteObjectLock: (*Emulator).objectLockConfig, RouteGetVersioning: (*Emulator).getVersioning,
	RoutePutVersioning: (*Emulator).putVersioning, RouteGetLifecycle: (*Emulator).getLifecycle,
	RoutePutLifecycle: (*Emulator).putLifecycle, RouteDeleteLifecycle: (*Emulator).deleteLifecycle,
	RouteListObjects: (*Emulator).listObjects, RouteListVersions: (*Emulator).listObjectVersions,
	RoutePutObject: (*Emulator).putObject,
	RouteGetObject: (*Emulator).getObject, RouteHeadObject: (*Emulator).getObject,
	RouteDeleteObject: (*Emulator).deleteObject, RouteAddServiceAccount: (*Emulator).addServiceAccount,
	RouteUpdateServiceAccount: (*Emulator).updateServiceAccount, RouteServiceAccountInfo: (*Emulator).serviceAccountInfo,
	RouteListServiceAccounts: (*Emulator).listServiceAccounts, RouteDeleteServiceAccount: (*Emulator).deleteServiceAccount,
}

var requestSeq atomic.Uint64

// Handler returns the emulator's HTTP handler.
func (e *Emulator) Handler() http.Handler { return http.HandlerFunc(e.serve) }

func (e *Emulator) serve(w http.ResponseWriter, r *http.Request) {
	c := &call{r: r, reqID: fmt.Sprintf("EMU%016X", requestSeq.Add(1))}
	e.classify(c)
	e.count(c.route)
	f, _ := e.takeFault(c.route)
	if e.answerFault(w, r, c, f) {
		return
	}
	if f.Lost != LossNone {
		e.serveLost(w, r, c, f)
		return
	}
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	c.w = sw
	if err := e.dispatch(c); err != nil {
		writeError(sw, r, err, c.reqID)
	}
	e.record(r, c.route, sw.status)
}

// classify finds the route: admin paths on both prefixes (docs/rustfs-wire.md §11), else S3,
// path style or virtual-host style.
func (e *Emulator) classify(c *call) {
	if p, ok := canonicalAdminPath(c.r.URL.EscapedPath()); ok {
		c.route, c.seg = adminRoute(c.r.Method, p)
		c.compat = strings.HasPrefix(c.r.URL.EscapedPath(), minioAdminPrefix)
		return
	}
	e.mu.Lock()
	b := e.vhostBucket(c.r.Host)
	e.mu.Unlock()
	if b != "" {
		c.route, c.bucket, c.key = vhostRoute(c.r, b)
		return
	}
	c.route, c.bucket, c.key = s3Route(c.r)
}

func (e *Emulator) dispatch(c *call) *s3Error {
	if unsignedAdmin(c) { // docs/rustfs-wire.md §0.1, §13.9: check_access runs before the route lookup
		return errSignatureRequired
	}
	switch c.route {
	case RouteAdminV4: // docs/rustfs-wire.md §0.1: an unrouted /rustfs/admin/v4 path → 426, empty body
		c.w.WriteHeader(http.StatusUpgradeRequired)
		return nil
	case RouteAdminUnknown, RouteS3NotImplemented: // docs/rustfs-wire.md §0.1, §12.1: unknown admin path → 501
		return errNotImplemented
	}
	who, err := e.authenticate(c)
	if err != nil {
		return err
	}
	c.who = who
	return handlers[c.route](e, c)
}

// unsignedAdmin reports an admin request without credentials.
func unsignedAdmin(c *call) bool {
	admin := c.route == RouteAdminUnknown || c.route == RouteAdminV4
	return admin && c.r.Header.Get("Authorization") == "" && c.r.URL.Query().Get("X-Amz-Signature") == ""
}

// A Server is an Emulator served over real HTTP (or HTTPS, WithTLS) on
// 127.0.0.1, also known under a test host name (Host, TierURL).
type Server struct {
	*Emulator
	srv  *httptest.Server
	host string
}

// NewServer starts an emulator on a free loopback port.
func NewServer(opts ...Option) *Server {
	e := New(opts...)
	srv := httptest.NewUnstartedServer(e.Handler())
	if e.tls {
		srv.StartTLS()
		trustCertificate(srv.Certificate())
	} else {
		srv.Start()
	}
	host := registerHost(srv.Listener.Addr().String(), e)
	e.mu.Lock()
	e.vhosts = append(e.vhosts, host)
	e.mu.Unlock()
	return &Server{Emulator: e, srv: srv, host: host}
}

// URL returns the base URL, for example http://127.0.0.1:41234.
func (s *Server) URL() string { return s.srv.URL }

// Addr returns host:port.
func (s *Server) Addr() string { return s.srv.Listener.Addr().String() }

// Close stops the server and closes idle outbound connections.
func (s *Server) Close() {
	unregisterHost(s.host)
	s.srv.Close()
	s.remote.CloseIdleConnections()
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// writeEmpty is the admin success answer: 200, empty body, JSON content type
// and Content-Length 0 (docs/rustfs-wire.md §0 quick reference).
func writeEmpty(c *call) *s3Error {
	c.w.Header().Set("Content-Type", "application/json")
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusOK)
	return nil
}

func writeJSON(c *call, v any) *s3Error {
	b, err := json.Marshal(v)
	if err != nil {
		return errf(http.StatusInternalServerError, "InternalError", "marshal err "+err.Error())
	}
	c.w.Header().Set("Content-Type", "application/json")
	c.w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = c.w.Write(b)
	return nil
}

func writeXML(c *call, v any) *s3Error {
	b, err := xml.Marshal(v)
	if err != nil {
		return errf(http.StatusInternalServerError, "InternalError", err.Error())
	}
	c.w.Header().Set("Content-Type", "application/xml")
	c.w.Header().Set("X-Amz-Request-Id", c.reqID)
	_, _ = c.w.Write([]byte(xml.Header))
	_, _ = c.w.Write(b)
	return nil
}
