package rustfs

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Per-namespace parent users (docs/rustfs-wire.md §20.7). Service accounts
// with the same parent can list, read and delete one another without any
// admin permission (§16.8), so each namespace's service accounts are created
// under a parent user of their own, never under the admin credential. The
// parent's one mapped canned policy, its bounding policy, caps what any of
// its service accounts can do whatever their session policies say (docs/rustfs-wire.md §20.6).

const (
	parentUserPrefix = "provider-rustfs-"
	parentUserDomain = "provider-rustfs/namespace-parent-user/v1"
	parentHashLength = 8
)

// nameHash is base32 in lower case without padding: a-z and 2-7.
var nameHash = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// dnsLabel is a Kubernetes namespace name (RFC 1123 label).
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// ParentUserName returns the RustFS user that parents the service accounts
// of a namespace: "provider-rustfs-<namespace>-<hash>", where hash is 8
// characters of a-z 2-7 from SHA-256 over a versioned domain and the
// namespace. The namespace appears whole and the hash has a fixed length, so
// two namespaces never share a name; the hash marks names derived by this
// rule. At most 88 bytes, within RustFS's user-name rules
// (ValidateUserName). The namespace must be a valid Kubernetes namespace
// name.
func ParentUserName(namespace string) (string, error) {
	if !dnsLabel.MatchString(namespace) {
		return "", errors.Errorf("namespace %q is not a valid namespace name (an RFC 1123 label)", namespace)
	}
	h := sha256.New()
	_, _ = io.WriteString(h, parentUserDomain+"\x00"+namespace) // hash writes never fail
	return parentUserPrefix + namespace + "-" + nameHash.EncodeToString(h.Sum(nil))[:parentHashLength], nil
}

// boundActions are every action SessionPolicy can grant, and nothing else.
func boundActions() []string {
	var all []string
	for _, a := range [][]string{bucketRead, bucketWrite, location, objectRead, objectWrite} {
		all = append(all, a...)
	}
	return set(all)
}

// BoundingPolicy returns the canned policy that bounds a namespace's service
// accounts: Allow, on buckets whose names start with bucketPrefix ("" means
// every bucket), exactly the S3 object and listing actions SessionPolicy can
// grant (s3:ListBucket, s3:ListBucketMultipartUploads, s3:GetBucketLocation,
// s3:GetObject, s3:PutObject, s3:DeleteObject, s3:AbortMultipartUpload,
// s3:ListMultipartUploadParts). Everything else is denied by absence: no
// admin or IAM action, no bucket creation, deletion, policy, lifecycle,
// versioning, tagging, ACL, object-lock or replication change, and no
// s3:ListAllMyBuckets. bucketPrefix must be "" or a start of an S3 bucket
// name (a-z 0-9 . -), such as "<namespace>-" under the NamespacePrefix name
// scope.
//
// excluded are the bucket prefixes of longer namespaces that exist
// ("team-a-" for "team-"): a Deny statement with the same actions on the
// buckets that start with them takes them out of the bound, as a Deny
// overrides every Allow of the parent (docs/rustfs-wire.md §20.6). Each must
// start with bucketPrefix and be longer. They are sorted, and one that
// starts with another is left out, so the policy is the same for the same
// set; none gives the policy without a Deny.
func BoundingPolicy(bucketPrefix string, excluded ...string) (Policy, error) {
	if err := validBucketPrefix(bucketPrefix); err != nil {
		return Policy{}, err
	}
	p := Policy{Version: PolicyVersion, Statements: []Statement{{
		Sid: "BucketAccessBound", Effect: "Allow", Actions: boundActions(),
		Resources: Values{s3ARN + bucketPrefix + "*"},
	}}}
	var deny Values
	for _, e := range outermost(excluded) {
		if err := validBucketPrefix(e); err != nil {
			return Policy{}, err
		}
		if len(e) <= len(bucketPrefix) || !strings.HasPrefix(e, bucketPrefix) {
			return Policy{}, errors.Errorf("excluded bucket prefix %q must be longer than %q and start with it", e, bucketPrefix)
		}
		deny = append(deny, s3ARN+e+"*")
	}
	if len(deny) > 0 {
		p.Statements = append(p.Statements, Statement{Sid: "LongerNamespaces", Effect: "Deny", Actions: boundActions(), Resources: deny})
	}
	return p, nil
}

func validBucketPrefix(prefix string) error {
	if len(prefix) > 62 || strings.Trim(prefix, "abcdefghijklmnopqrstuvwxyz0123456789.-") != "" {
		return errors.Errorf("bucket prefix %q must be at most 62 characters of a-z, 0-9, '.' and '-'", prefix)
	}
	return nil
}

// outermost returns prefixes sorted, without duplicates and without those
// that start with another of them (which the other covers).
func outermost(prefixes []string) []string {
	sorted := slices.Clone(prefixes)
	slices.Sort(sorted)
	var out []string
	for _, p := range sorted {
		if len(out) == 0 || !strings.HasPrefix(p, out[len(out)-1]) {
			out = append(out, p)
		}
	}
	return out
}

// A ParentUser is a namespace's parent user and its bounding policy, which
// RustFS stores as a canned policy with the user's name.
type ParentUser struct {
	Name   string // ParentUserName(namespace); also the canned policy's name
	Policy Policy // BoundingPolicy(bucketPrefix, excluded...)
}

// NewParentUser returns the parent user of a namespace whose service
// accounts may touch only buckets starting with bucketPrefix ("" for all)
// and not with one of excluded (BoundingPolicy).
func NewParentUser(namespace, bucketPrefix string, excluded ...string) (ParentUser, error) {
	name, err := ParentUserName(namespace)
	if err != nil {
		return ParentUser{}, err
	}
	p, err := BoundingPolicy(bucketPrefix, excluded...)
	return ParentUser{Name: name, Policy: p}, err
}

// ParentUserState says what EnsureParentUser found and did.
type ParentUserState struct {
	PolicyWritten  bool // the canned policy was missing or different and was written
	Created        bool // the user was missing and was added
	MappingWritten bool // the user's policy mapping was not exactly the bounding policy and was replaced
	// Enabled is false when someone disabled the user: its service accounts
	// are then denied every S3 and admin call. EnsureParentUser never
	// re-enables a user.
	Enabled bool
}

// EnsureParentUser makes p's user exist, bounded by p's policy and nothing
// else, with as few calls as possible: in the steady state two reads and no
// write. In order: the canned policy (written when missing or different),
// the user (added when missing, with a secret key nobody keeps), and the
// user's mapping (replaced unless it is exactly the policy). It never
// changes an existing user's secret key or status. A user that belongs to
// groups is an error after those steps: group policies add to the bound.
func (c *Client) EnsureParentUser(ctx context.Context, p ParentUser) (ParentUserState, error) {
	var s ParentUserState
	if err := ValidateUserName(p.Name); err != nil {
		return s, errors.Wrap(err, "cannot ensure parent user")
	}
	var err error
	if s.PolicyWritten, err = c.EnsureCannedPolicy(ctx, p.Name, p.Policy); err != nil {
		return s, errors.Wrapf(err, "cannot ensure parent user %q", p.Name)
	}
	info, created, err := c.ensureUser(ctx, p.Name, NewSecretKey)
	if err != nil {
		return s, errors.Wrapf(err, "cannot ensure parent user %q", p.Name)
	}
	s.Created, s.Enabled = created, info.Enabled()
	if s.MappingWritten, err = c.ensureMapping(ctx, p.Name, p.Name, info); err != nil {
		return s, errors.Wrapf(err, "cannot ensure parent user %q", p.Name)
	}
	if len(info.MemberOf) > 0 {
		return s, errors.Errorf("parent user %q belongs to groups %q, whose policies widen its bound: remove it from them", p.Name, info.MemberOf)
	}
	return s, nil
}
