package rustfstest

import (
	"context"
	"crypto/rand"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// The probe object (docs/rustfs-wire.md §18.2). rc verify writes, reads and deletes
// "probeobject"; GA add, edit and verify write "rustfs-tier-probe-<uuid>",
// find it with the candidate listing, read it, delete that exact version and
// check that it is gone, compensating for a PUT whose outcome is unknown.

// A backend is a tier's remote as the warm backends see it.
type backend interface {
	validate(ctx context.Context) error
	put(ctx context.Context, object string, body []byte) (string, error)
	candidate(ctx context.Context, object string) (candidate, error)
	get(ctx context.Context, object, versionID string, n int) ([]byte, error)
	remove(ctx context.Context, object, versionID string) error
	inUse(ctx context.Context) (bool, error)
}

// backendFor returns the backend of a tier: GCS's storage model, or S3.
func (e *Emulator) backendFor(t TierRecord) backend {
	if t.Type == "gcs" {
		return &gcsBackend{e: e, t: t}
	}
	return &s3Backend{e: e, t: t}
}

// A candKind is what TransitionCandidateProbe found.
type candKind int

const (
	candMissing candKind = iota
	candUnversioned
	candVersioned
	candAmbiguous
	candUnsupported
)

// A candidate is the probe object as the remote lists it.
type candidate struct {
	kind      candKind
	versionID string
}

// probeBody is what the probe object holds.
var probeBody = []byte("RustFS")

// probeGA is check_warm_backend_with_deadlines. cleanup is how long after
// ctx's deadline cleanup may go on (1 s for add and edit, 30 s for verify).
func (e *Emulator) probeGA(ctx context.Context, b backend, cleanup time.Duration) *tierError {
	deadline, _ := ctx.Deadline()
	cctx, cancel := context.WithDeadline(context.Background(), deadline.Add(cleanup))
	defer cancel()
	object := "rustfs-tier-probe-" + uuid()
	if err := b.validate(ctx); err != nil {
		if errors.Is(err, errProbeTimeout) {
			return errTimedOut
		}
		return invalidConfig(invalidConfigMsg)
	}
	vid, err := b.put(ctx, object, probeBody)
	if err != nil {
		return e.compensated(cctx, b, object, putFailure(err))
	}
	cand, err := b.candidate(ctx, object)
	if err != nil || !matches(cand, vid) {
		return e.compensated(cctx, b, object, invalidConfig(invalidConfigMsg))
	}
	readErr := readProbe(ctx, b, object, vid)
	if removed, err := removeDiscovered(cctx, b, object, cand); err != nil || !removed {
		return errUncertain
	}
	if after, err := b.candidate(cctx, object); err != nil || after.kind != candMissing {
		return errUncertain
	}
	return readErr
}

// putFailure is the answer to a failed probe PUT once compensation succeeded.
func putFailure(err error) *tierError {
	if errors.Is(err, errProbeTimeout) {
		return errTimedOut
	}
	return permErr(permErrMsg)
}

// matches compares the PUT's version ID with the listed candidate.
func matches(c candidate, putVersion string) bool {
	switch c.kind {
	case candUnversioned:
		return putVersion == ""
	case candVersioned:
		return c.versionID == putVersion
	}
	return false
}

func readProbe(ctx context.Context, b backend, object, vid string) *tierError {
	body, err := b.get(ctx, object, vid, len(probeBody)+1)
	switch {
	case errors.Is(err, errProbeTimeout):
		return errTimedOut
	case err != nil || string(body) != string(probeBody):
		return permErr(permErrMsg)
	}
	return nil
}

// compensated runs compensate_uncertain_probe_put and returns failure when
// it cleaned up, else the "outcome is uncertain" error.
func (e *Emulator) compensated(ctx context.Context, b backend, object string, failure *tierError) *tierError {
	if compensate(ctx, b, object) != nil {
		return errUncertain
	}
	return failure
}

// compensate polls the candidate listing about once a second until ctx's
// deadline, deleting whatever version of the probe object it finds, then
// confirms within one more second that none is left.
func compensate(ctx context.Context, b backend, object string) error {
	settle, _ := ctx.Deadline()
	removed := false
	for time.Now().Before(settle) {
		c, err := b.candidate(ctx, object)
		if err != nil {
			return err
		}
		if c.kind == candMissing && removed {
			break
		}
		ok, err := removeDiscovered(ctx, b, object, c)
		if err != nil {
			return err
		}
		removed = removed || ok
		wait := min(time.Until(settle), time.Second)
		if wait <= 0 {
			break
		}
		time.Sleep(wait)
	}
	fctx, cancel := context.WithDeadline(context.Background(), settle.Add(time.Second))
	defer cancel()
	c, err := b.candidate(fctx, object)
	if err != nil {
		return err
	}
	if ok, err := removeDiscovered(fctx, b, object, c); err != nil || !ok {
		return err
	}
	if c, err = b.candidate(fctx, object); err != nil || c.kind != candMissing {
		return errors.New("remote tier probe cleanup could not be confirmed")
	}
	return nil
}

// removeDiscovered deletes the candidate found and reports whether there
// was one; an ambiguous or unsupported listing cannot be cleaned up.
func removeDiscovered(ctx context.Context, b backend, object string, c candidate) (bool, error) {
	switch c.kind {
	case candMissing:
		return false, nil
	case candVersioned:
		return true, b.remove(ctx, object, c.versionID)
	case candUnversioned:
		return true, b.remove(ctx, object, "")
	case candAmbiguous:
		return false, errors.New("remote tier probe PUT produced multiple possible versions")
	}
	return false, errors.New("remote tier cannot discover the outcome of a probe PUT")
}

// probeRC is rc's check_warm_backend, used by verify (docs/rustfs-wire.md §1.5): validate,
// then PUT (declared length 5: RustFS sends "RustF"), GET and DELETE of
// "probeobject". Any failure is "Tier Perm Err".
func (e *Emulator) probeRC(ctx context.Context, b backend) *tierError {
	if err := b.validate(ctx); err != nil {
		return invalidConfig(invalidConfigMsg)
	}
	vid, err := b.put(ctx, "probeobject", probeBody[:5])
	if err == nil {
		_, err = b.get(ctx, "probeobject", vid, 5)
	}
	if err == nil {
		err = b.remove(ctx, "probeobject", vid)
	}
	if err != nil {
		return permErr(permErrMsg)
	}
	return nil
}

// candidate is WarmBackendS3::probe_transition_candidate (for the types
// whose backend has it, cannotProbe): GetBucketVersioning,
// then ListObjectVersions for the exact key. None is missing; a delete
// marker or several versions are ambiguous; one version is unversioned on a
// bucket without versioning, else versioned with its ID.
func (b *s3Backend) candidate(ctx context.Context, object string) (candidate, error) {
	if b.e.cannotProbe(b.t.Type) {
		return candidate{kind: candUnsupported}, nil
	}
	status, err := b.versioning(ctx)
	if err != nil {
		return candidate{}, err
	}
	versions, markers, err := b.listVersions(ctx, b.dest(object))
	switch {
	case err != nil:
		return candidate{}, err
	case len(versions)+markers == 0:
		return candidate{kind: candMissing}, nil
	case markers > 0 || len(versions) > 1:
		return candidate{kind: candAmbiguous}, nil
	case status == "":
		return candidate{kind: candUnversioned}, nil
	case status == "Enabled" || status == "Suspended":
		return candidate{kind: candVersioned, versionID: versions[0]}, nil
	}
	return candidate{kind: candAmbiguous}, nil
}

// listVersions lists the version IDs and the number of delete markers of
// exactly key, following the markers while the listing is truncated.
func (b *s3Backend) listVersions(ctx context.Context, key string) ([]string, int, error) {
	var ids []string
	markers := 0
	q := url.Values{"versions": {""}, "prefix": {key}, "delimiter": {""}, "encoding-type": {"url"}, "max-keys": {"1000"}}
	for {
		a, err := b.call(ctx, http.MethodGet, "", q, nil, nil)
		if err != nil {
			return nil, 0, err
		}
		var res struct {
			IsTruncated   bool
			NextKeyMarker string
			NextVersionID string          `xml:"NextVersionIdMarker"`
			Versions      []listedVersion `xml:"Version"`
			DeleteMarkers []listedVersion `xml:"DeleteMarker"`
		}
		if err := xml.Unmarshal(a.body, &res); err != nil {
			return nil, 0, err
		}
		for _, v := range res.Versions {
			if k, _ := url.QueryUnescape(v.Key); k == key {
				ids = append(ids, v.VersionID)
			}
		}
		for _, m := range res.DeleteMarkers {
			if k, _ := url.QueryUnescape(m.Key); k == key {
				markers++
			}
		}
		if !res.IsTruncated {
			return ids, markers, nil
		}
		q.Set("key-marker", res.NextKeyMarker)
		q.Set("version-id-marker", res.NextVersionID)
	}
}

type listedVersion struct {
	Key       string `xml:"Key"`
	VersionID string `xml:"VersionId"`
}

// uuid returns a random version 4 UUID in lower-case hyphenated form.
func uuid() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
