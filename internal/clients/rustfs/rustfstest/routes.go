package rustfstest

import (
	"net/http"
	"net/url"
	"strings"
)

// Route names, as used by Count, Requests and InjectFault.
const (
	RouteListTiers        = "tier.list"
	RouteAddTier          = "tier.add"
	RouteEditTier         = "tier.edit"
	RouteRemoveTier       = "tier.remove"
	RouteVerifyTier       = "tier.verify"
	RouteTierStats        = "tier.stats"
	RouteClearTiers       = "tier.clear"
	RouteServerInfo       = "admin.info"
	RouteAdminUnknown     = "admin.unknown"
	RouteAdminV4          = "admin.v4"
	RouteListBuckets      = "s3.listBuckets"
	RouteHeadBucket       = "bucket.head"
	RouteCreateBucket     = "bucket.create"
	RouteBucketLocation   = "bucket.location"
	RouteObjectLock       = "bucket.objectLock"
	RouteGetVersioning    = "bucket.getVersioning"
	RoutePutVersioning    = "bucket.putVersioning"
	RouteGetLifecycle     = "lifecycle.get"
	RoutePutLifecycle     = "lifecycle.put"
	RouteDeleteLifecycle  = "lifecycle.delete"
	RouteListObjects      = "object.list"
	RouteListVersions     = "object.listVersions"
	RoutePutObject        = "object.put"
	RouteGetObject        = "object.get"
	RouteHeadObject       = "object.head"
	RouteDeleteObject     = "object.delete"
	RouteS3NotImplemented = "s3.notImplemented"
)

// writeRoutes are the provider-visible writes counted by Writes.
var writeRoutes = map[string]bool{
	RouteAddTier: true, RouteEditTier: true, RouteRemoveTier: true, RouteClearTiers: true,
	RouteCreateBucket: true, RoutePutVersioning: true, RoutePutLifecycle: true, RouteDeleteLifecycle: true,
	RouteAddServiceAccount: true, RouteUpdateServiceAccount: true, RouteDeleteServiceAccount: true,
}

// serviceAccountRoutes are the service-account routes by method and path
// (docs/rustfs-wire.md §16.1; service_account.rs › register_service_account_route).
var serviceAccountRoutes = map[string]string{
	"PUT add-service-account": RouteAddServiceAccount, "PUT add-service-accounts": RouteAddServiceAccount,
	"POST update-service-account": RouteUpdateServiceAccount, "GET info-service-account": RouteServiceAccountInfo,
	"GET list-service-accounts": RouteListServiceAccounts, "DELETE delete-service-account": RouteDeleteServiceAccount,
	"DELETE delete-service-accounts": RouteDeleteServiceAccount,
}

const (
	adminPrefix      = "/rustfs/admin"
	minioAdminPrefix = "/minio/admin"
)

// canonicalAdminPath rewrites /minio/admin/… to /rustfs/admin/… (docs/rustfs-wire.md §11) and
// reports whether the path is an admin path at all. It works on the escaped
// path because tier names in edit/remove are raw segments (§1.3).
func canonicalAdminPath(escaped string) (string, bool) {
	if p, ok := strings.CutPrefix(escaped, minioAdminPrefix); ok && (p == "" || p[0] == '/') {
		return adminPrefix + p, true
	}
	if p, ok := strings.CutPrefix(escaped, adminPrefix); ok && (p == "" || p[0] == '/') {
		return escaped, true
	}
	return "", false
}

// adminRoute maps a canonical admin path to a route (docs/rustfs-wire.md §0 quick reference,
// §12.1). The static tier/clear wins over tier/{name} for POST. seg is the
// raw {name} segment.
func adminRoute(method, p string) (route, seg string) {
	rest, ok := strings.CutPrefix(p, adminPrefix+"/v3/")
	if !ok {
		if strings.HasPrefix(p, adminPrefix+"/v4") {
			return RouteAdminV4, ""
		}
		return RouteAdminUnknown, ""
	}
	switch {
	case rest == "tier" && method == http.MethodGet:
		return RouteListTiers, ""
	case rest == "tier" && method == http.MethodPut:
		return RouteAddTier, ""
	case rest == "tier-stats" && method == http.MethodGet:
		return RouteTierStats, ""
	case rest == "tier/clear" && method == http.MethodPost:
		return RouteClearTiers, ""
	case rest == "info" && method == http.MethodGet: // docs/rustfs-wire.md §15.1
		return RouteServerInfo, ""
	}
	if r, ok := serviceAccountRoutes[method+" "+rest]; ok {
		return r, ""
	}
	if r, ok := iamRoutes[method+" "+rest]; ok { // docs/rustfs-wire.md §20
		return r, ""
	}
	if r, b, ok := quotaRoute(method, rest); ok { // docs/rustfs-wire.md §21.1
		return r, b
	}
	name, ok := strings.CutPrefix(rest, "tier/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return RouteAdminUnknown, ""
	}
	switch method {
	case http.MethodGet:
		return RouteVerifyTier, name
	case http.MethodPost:
		return RouteEditTier, name
	case http.MethodDelete:
		return RouteRemoveTier, name
	}
	return RouteAdminUnknown, ""
}

// s3Route maps an S3 request to a route, its bucket and its key.
func s3Route(r *http.Request) (route, bucketName, key string) {
	p := strings.TrimPrefix(r.URL.Path, "/")
	if p == "" {
		if r.Method == http.MethodGet {
			return RouteListBuckets, "", ""
		}
		return RouteS3NotImplemented, "", ""
	}
	bucketName, key, _ = strings.Cut(p, "/")
	if key != "" {
		return objectRoute(r.Method), bucketName, key
	}
	return bucketRoute(r.Method, r.URL.Query()), bucketName, ""
}

// vhostRoute maps a virtual-host style request for bucketName.
func vhostRoute(r *http.Request, bucketName string) (route, bucket, key string) {
	key = strings.TrimPrefix(r.URL.Path, "/")
	if key != "" {
		return objectRoute(r.Method), bucketName, key
	}
	return bucketRoute(r.Method, r.URL.Query()), bucketName, ""
}

func objectRoute(method string) string {
	switch method {
	case http.MethodPut:
		return RoutePutObject
	case http.MethodGet:
		return RouteGetObject
	case http.MethodHead:
		return RouteHeadObject
	case http.MethodDelete:
		return RouteDeleteObject
	}
	return RouteS3NotImplemented
}

// bucketSubresources are the bucket subresources the emulator serves.
var bucketSubresources = map[string]map[string]string{
	"location":    {http.MethodGet: RouteBucketLocation},
	"object-lock": {http.MethodGet: RouteObjectLock},
	"versioning":  {http.MethodGet: RouteGetVersioning, http.MethodPut: RoutePutVersioning},
	"versions":    {http.MethodGet: RouteListVersions},
	"lifecycle": {http.MethodGet: RouteGetLifecycle, http.MethodPut: RoutePutLifecycle,
		http.MethodDelete: RouteDeleteLifecycle},
}

// otherSubresources are S3 subresources the emulator does not implement.
var otherSubresources = []string{"acl", "policy", "tagging", "cors", "encryption", "replication", "notification",
	"website", "logging", "uploads", "delete", "retention", "legal-hold", "accelerate", "requestPayment"}

func bucketRoute(method string, q url.Values) string {
	for name, byMethod := range bucketSubresources {
		if _, ok := q[name]; ok {
			if r, ok := byMethod[method]; ok {
				return r
			}
			return RouteS3NotImplemented
		}
	}
	for _, name := range otherSubresources {
		if _, ok := q[name]; ok {
			return RouteS3NotImplemented
		}
	}
	switch method {
	case http.MethodHead:
		return RouteHeadBucket
	case http.MethodPut:
		return RouteCreateBucket
	case http.MethodGet:
		return RouteListObjects
	case http.MethodDelete:
		return RouteDeleteBucket // docs/rustfs-wire.md §22.1
	}
	return RouteS3NotImplemented
}
