package rustfstest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The GCS tier backend speaks the Google Cloud Storage API (a JSON upload
// client and a gRPC control client, authenticated by OAuth;
// docs/rustfs-wire.md §2, §18). RustFS builds its Google credentials from
// the tier's creds with the authorized-user builder of google-cloud-auth
// (WarmBackendGCS::new › user_account::Builder): the JSON must carry the
// string fields type, client_id, client_secret and refresh_token, as
// `gcloud auth application-default login` writes them; a service-account
// key has no client_secret or refresh_token and is refused. The emulator
// does not speak the GCS protocol: a gcs tier's endpoint names another
// emulator of this process (its test host name, Server.TierURL), and the
// emulator works on that emulator's bucket directly, with the semantics
// the GCS backend relies on: a write makes a new generation (the object's
// version ID), reads and deletes take a generation, and the listing finds
// the object. The token exchange succeeds when client_id is a user of the
// remote emulator, client_secret its secret key and refresh_token is not
// empty. Each operation is recorded in the remote's request log under a
// gcs.* route.

// Routes of the emulated GCS operations in the remote's request log.
const (
	RouteGCSWrite  = "gcs.writeObject"
	RouteGCSRead   = "gcs.readObject"
	RouteGCSDelete = "gcs.deleteObject"
	RouteGCSList   = "gcs.listObjects"
)

// GCSAuthorizedUser returns authorized-user JSON that a remote emulator
// accepts for a gcs tier when clientID is one of its users (or its root)
// with clientSecret as secret key.
func GCSAuthorizedUser(clientID, clientSecret string) string {
	b, _ := json.Marshal(map[string]string{"type": "authorized_user", "client_id": clientID, // strings
		"client_secret": clientSecret, "refresh_token": "rustfstest-refresh-token"})
	return string(b)
}

// An authorizedUser is what google-cloud-auth's authorized-user builder
// reads from the credentials JSON; every field is a required string.
type authorizedUser struct {
	Type, ClientID, ClientSecret, RefreshToken string
}

// authorizedUserFields are the builder's required fields in declaration
// order, which is the order serde reports a missing one in.
var authorizedUserFields = []string{"type", "client_id", "client_secret", "refresh_token"}

// parseAuthorizedUser reads creds as WarmBackendGCS::new does: JSON
// (serde_json's own error otherwise), then the authorized-user fields
// ("Invalid credentials JSON: …"). It returns the problem, or "".
func parseAuthorizedUser(creds string) (authorizedUser, string) {
	var v any
	if err := json.Unmarshal([]byte(creds), &v); err != nil {
		return authorizedUser{}, "expected value at line 1 column 1" // serde_json's text for non-JSON
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return authorizedUser{}, "Invalid credentials JSON: invalid type, expected struct AuthorizedUser"
	}
	vals := make([]string, len(authorizedUserFields))
	for i, f := range authorizedUserFields {
		raw, present := obj[f]
		s, isString := raw.(string)
		switch {
		case !present:
			return authorizedUser{}, "Invalid credentials JSON: missing field `" + f + "`"
		case !isString:
			return authorizedUser{}, "Invalid credentials JSON: invalid type for field `" + f + "`, expected a string"
		}
		vals[i] = s
	}
	return authorizedUser{Type: vals[0], ClientID: vals[1], ClientSecret: vals[2], RefreshToken: vals[3]}, ""
}

type gcsBackend struct {
	e *Emulator
	t TierRecord
}

// open finds the remote emulator and exchanges the authorized user's
// refresh token, which the remote accepts for one of its users.
func (g *gcsBackend) open(route, key, action string) (*Emulator, func(int), error) {
	u, err := url.Parse(g.t.Endpoint)
	if err != nil {
		return nil, nil, err
	}
	r, ok := lookupRegistered(u.Hostname())
	if !ok {
		return nil, nil, errors.New("client error (Connect)")
	}
	remote := r.emu
	record := func(status int) {
		remote.count(route)
		remote.recordRoute(http.MethodPost, "/"+g.t.Bucket+"/"+key, route, status)
	}
	au, _ := parseAuthorizedUser(g.t.Creds)
	who, secret, found := remote.lookup(au.ClientID)
	switch {
	case !found || secret != au.ClientSecret || au.RefreshToken == "":
		record(http.StatusUnauthorized)
		return nil, nil, errors.New("remote tier request failed with status 401 Unauthorized: invalid_grant")
	case !who.allowedOn(accessRequest{action: action, bucket: g.t.Bucket, object: key}):
		record(http.StatusForbidden)
		return nil, nil, errors.New("remote tier request failed with status 403 Forbidden: AccessDenied")
	}
	return remote, record, nil
}

func (g *gcsBackend) dest(object string) string {
	if p := strings.TrimSuffix(g.t.Prefix, "/"); p != "" {
		return p + "/" + object
	}
	return object
}

// with runs f on the remote bucket under the remote's lock.
func (g *gcsBackend) with(route, key, action string, f func(b *bucket) error) error {
	remote, record, err := g.open(route, key, action)
	if err != nil {
		return err
	}
	remote.mu.Lock()
	b, ok := remote.buckets[g.t.Bucket]
	if ok {
		err = f(b)
	}
	remote.mu.Unlock()
	switch {
	case !ok:
		record(http.StatusNotFound)
		return errors.New("remote tier request failed with status 404 Not Found: NoSuchBucket")
	case err != nil:
		record(http.StatusNotFound)
		return err
	}
	record(http.StatusOK)
	return nil
}

func (g *gcsBackend) validate(context.Context) error { return nil }

// put writes a new generation, replacing the live one.
func (g *gcsBackend) put(_ context.Context, name string, body []byte) (string, error) {
	key := g.dest(name)
	var gen string
	err := g.with(RouteGCSWrite, key, "s3:PutObject", func(b *bucket) error {
		o := newObject(body, g.e.now())
		gen = strconv.FormatUint(versionSeq.Add(1), 10)
		o.versionID = gen
		b.objects[key] = []*object{o}
		return nil
	})
	return gen, err
}

// candidate lists the generations of the probe object, when the emulated
// release's GCS backend can (WithCandidateProbe): RustFS's cannot
// (docs/rustfs-wire.md §4.3).
func (g *gcsBackend) candidate(_ context.Context, object string) (candidate, error) {
	if g.e.cannotProbe(g.t.Type) {
		return candidate{kind: candUnsupported}, nil
	}
	key := g.dest(object)
	var c candidate
	err := g.with(RouteGCSList, key, "s3:ListBucket", func(b *bucket) error {
		switch vs := b.objects[key]; len(vs) {
		case 0:
			c.kind = candMissing
		case 1:
			c = candidate{kind: candVersioned, versionID: vs[0].versionID}
		default:
			c.kind = candAmbiguous
		}
		return nil
	})
	return c, err
}

func (g *gcsBackend) get(_ context.Context, object, generation string, n int) ([]byte, error) {
	key := g.dest(object)
	var body []byte
	err := g.with(RouteGCSRead, key, "s3:GetObject", func(b *bucket) error {
		o := b.head(key)
		if generation != "" {
			o = b.version(key, generation)
		}
		if o == nil {
			return errors.New("read_object error")
		}
		body = o.body[:min(n, len(o.body))]
		return nil
	})
	return body, err
}

func (g *gcsBackend) remove(_ context.Context, object, generation string) error {
	key := g.dest(object)
	return g.with(RouteGCSDelete, key, "s3:DeleteObject", func(b *bucket) error {
		if generation == "" {
			delete(b.objects, key)
			return nil
		}
		if !b.removeVersion(key, generation) {
			return errors.New("remote tier request failed with status 404 Not Found: NoSuchKey")
		}
		return nil
	})
}

// inUse is one listing of a page of one object under the prefix (without a
// trailing slash).
func (g *gcsBackend) inUse(context.Context) (bool, error) {
	prefix := strings.TrimSuffix(g.t.Prefix, "/")
	used := false
	err := g.with(RouteGCSList, prefix, "s3:ListBucket", func(b *bucket) error {
		for _, k := range b.keys() {
			used = used || strings.HasPrefix(k, prefix)
		}
		return nil
	})
	return used, err
}
