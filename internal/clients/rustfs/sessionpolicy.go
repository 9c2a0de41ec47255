package rustfs

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// An Access is what a grant lets a key do with a bucket.
type Access string

// The access levels.
const (
	// ReadOnly lists the bucket (within the prefix), reads objects and the
	// bucket's location.
	ReadOnly Access = "ReadOnly"
	// ReadWrite is ReadOnly plus writing and deleting objects and multipart
	// uploads.
	ReadWrite Access = "ReadWrite"
)

// A BucketGrant gives one access level to one bucket, or to the objects under
// Prefix in it ("" means the whole bucket).
type BucketGrant struct {
	Bucket string
	Access Access
	Prefix string
}

// MaxSessionPolicySize is the largest session policy RustFS stores, counted
// as compact JSON (MAX_SVCSESSION_POLICY_SIZE, docs/rustfs-wire.md §16.2).
const MaxSessionPolicySize = 4096

const s3ARN = "arn:aws:s3:::"

// The S3 actions of each level (docs/rustfs-wire.md §16.7 lists the action
// every S3 call is authorised with).
var (
	// bucketRead is authorised on the bucket, with s3:prefix conditions when
	// the grant has a prefix: ListObjects(V2) and HeadBucket.
	bucketRead = []string{"s3:ListBucket"}
	// bucketWrite adds listing the bucket's multipart uploads, which RustFS
	// also scopes by the s3:prefix condition.
	bucketWrite = []string{"s3:ListBucket", "s3:ListBucketMultipartUploads"}
	// location is authorised on the bucket and never scoped by prefix.
	location = []string{"s3:GetBucketLocation"}
	// objectRead is GetObject and HeadObject.
	objectRead = []string{"s3:GetObject"}
	// objectWrite adds PutObject (also CopyObject's destination and the
	// multipart create, part and complete calls), DeleteObject, and aborting
	// and listing the parts of a multipart upload.
	objectWrite = []string{"s3:AbortMultipartUpload", "s3:DeleteObject", "s3:GetObject",
		"s3:ListMultipartUploadParts", "s3:PutObject"}
)

// SessionPolicy returns the session policy that grants exactly grants
// (docs/rustfs-wire.md §16.7): per grant s3:ListBucket on the bucket (only for
// s3:prefix values under the prefix when there is one), s3:GetBucketLocation
// on the bucket and s3:GetObject on "bucket/prefix*"; ReadWrite adds
// s3:ListBucketMultipartUploads, s3:PutObject, s3:DeleteObject,
// s3:AbortMultipartUpload and s3:ListMultipartUploadParts. The policy always
// has a Version and at least one statement, because RustFS reads an empty
// policy as "no session policy", which gives a root-parented account the
// owner's access (docs/rustfs-wire.md §16.3). Equal grant lists in any order
// give the same policy. An empty list, an invalid grant or a policy larger
// than RustFS stores is an error.
func SessionPolicy(grants []BucketGrant) (Policy, error) {
	if len(grants) == 0 {
		return Policy{}, errors.New("cannot build a session policy without buckets: RustFS reads an empty policy as full access")
	}
	for i, g := range grants {
		if err := validateGrant(g); err != nil {
			return Policy{}, errors.Wrapf(err, "bucket grant %d", i)
		}
	}
	p := Policy{Version: PolicyVersion, Statements: statementsFor(sortedGrants(grants))}
	b, err := compactPolicy(p)
	if err != nil {
		return Policy{}, err
	}
	if len(b) > MaxSessionPolicySize {
		return Policy{}, errors.Errorf("the session policy for %d bucket grants is %d bytes; RustFS stores at most %d: grant fewer buckets or prefixes per key",
			len(grants), len(b), MaxSessionPolicySize)
	}
	return p, nil
}

// statementsFor groups grants to keep the policy small: one statement for
// every bucket location, one per access level for objects, one for unscoped
// bucket listing per level, and one per prefixed bucket listing (a condition
// applies to a whole statement, so prefixes of different grants must not
// share one).
func statementsFor(grants []BucketGrant) []Statement {
	var buckets, readList, writeList, readObjects, writeObjects []string
	var scoped []Statement
	for _, g := range grants {
		buckets = append(buckets, s3ARN+g.Bucket)
		objects := s3ARN + g.Bucket + "/" + g.Prefix + "*"
		list := bucketRead
		if g.Access == ReadWrite {
			list = bucketWrite
			writeObjects = append(writeObjects, objects)
		} else {
			readObjects = append(readObjects, objects)
		}
		switch {
		case g.Prefix != "":
			scoped = append(scoped, allow(list, []string{s3ARN + g.Bucket},
				Conditions{"StringLike": {"s3:prefix": {g.Prefix + "*"}}}))
		case g.Access == ReadWrite:
			writeList = append(writeList, s3ARN+g.Bucket)
		default:
			readList = append(readList, s3ARN+g.Bucket)
		}
	}
	out := []Statement{allow(location, buckets, nil)}
	for _, s := range []struct{ actions, resources []string }{
		{bucketRead, readList}, {bucketWrite, writeList}, {objectRead, readObjects}, {objectWrite, writeObjects},
	} {
		if len(s.resources) > 0 {
			out = append(out, allow(s.actions, s.resources, nil))
		}
	}
	return append(out, scoped...)
}

func allow(actions, resources []string, c Conditions) Statement {
	return Statement{Effect: "Allow", Actions: set(actions), Resources: set(resources), Conditions: c}
}

// sortedGrants returns the grants sorted by bucket, prefix and access, without
// duplicates.
func sortedGrants(grants []BucketGrant) []BucketGrant {
	out := append([]BucketGrant(nil), grants...)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Bucket != b.Bucket {
			return a.Bucket < b.Bucket
		}
		if a.Prefix != b.Prefix {
			return a.Prefix < b.Prefix
		}
		return a.Access < b.Access
	})
	uniq := out[:0]
	for i, g := range out {
		if i == 0 || g != out[i-1] {
			uniq = append(uniq, g)
		}
	}
	return uniq
}

// validateGrant refuses what would widen the policy beyond the grant: a
// bucket name that breaks the S3 naming rules (naming.Bucket), and a prefix
// that is not UTF-8 (JSON would change it) or holds the policy wildcards *
// and ?, a policy variable ($), a leading slash, a control character, or a
// path RustFS would clean (".", "..", "//"), which could never match.
func validateGrant(g BucketGrant) error {
	if err := naming.BucketName(g.Bucket); err != nil {
		return errors.Wrap(err, "cannot grant access to a bucket")
	}
	switch {
	case g.Access != ReadOnly && g.Access != ReadWrite:
		return errors.Errorf("access %q for bucket %q must be %s or %s", g.Access, g.Bucket, ReadOnly, ReadWrite)
	case !utf8.ValidString(g.Prefix):
		return errors.Errorf("prefix for bucket %q is not valid UTF-8", g.Bucket)
	case strings.ContainsAny(g.Prefix, "*?$"):
		return errors.Errorf("prefix %q for bucket %q must not contain '*', '?' or '$': RustFS reads them as policy wildcards and variables", g.Prefix, g.Bucket)
	case strings.HasPrefix(g.Prefix, "/"):
		return errors.Errorf("prefix %q for bucket %q must not start with '/'", g.Prefix, g.Bucket)
	case hasDotSegment(g.Prefix) || strings.Contains(g.Prefix, "//"):
		return errors.Errorf("prefix %q for bucket %q must not contain '.' or '..' segments or '//': RustFS matches cleaned paths", g.Prefix, g.Bucket)
	case strings.ContainsFunc(g.Prefix, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return errors.Errorf("prefix for bucket %q must not contain control characters", g.Bucket)
	}
	return nil
}

func hasDotSegment(prefix string) bool {
	for _, seg := range strings.Split(prefix, "/") {
		if seg == ".." || seg == "." {
			return true
		}
	}
	return false
}
