package rustfs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func allowStmt(actions, resources []string, c Conditions) Statement {
	return Statement{Effect: "Allow", Actions: actions, Resources: resources, Conditions: c}
}

func prefixCond(p string) Conditions { return Conditions{"StringLike": {"s3:prefix": {p}}} }

var (
	roList    = []string{"s3:ListBucket"}
	rwList    = []string{"s3:ListBucket", "s3:ListBucketMultipartUploads"}
	loc       = []string{"s3:GetBucketLocation"}
	roObjects = []string{"s3:GetObject"}
	rwObjects = []string{"s3:AbortMultipartUpload", "s3:DeleteObject", "s3:GetObject", "s3:ListMultipartUploadParts", "s3:PutObject"}
)

// A policyCase is a grant list and the policy SessionPolicy must make of it.
type policyCase struct {
	reason string
	grants []BucketGrant
	want   Policy
}

var policyCases = map[string]policyCase{
	"ReadOnlyBucket": {
		reason: "ReadOnly lists the bucket, reads its location and its objects",
		grants: []BucketGrant{{Bucket: "data", Access: ReadOnly}},
		want: Policy{Version: PolicyVersion, Statements: []Statement{
			allowStmt(loc, []string{"arn:aws:s3:::data"}, nil),
			allowStmt(roList, []string{"arn:aws:s3:::data"}, nil),
			allowStmt(roObjects, []string{"arn:aws:s3:::data/*"}, nil),
		}},
	},
	"ReadWritePrefix": {
		reason: "a prefix scopes listing by s3:prefix and objects by resource; ReadWrite adds writes and multipart",
		grants: []BucketGrant{{Bucket: "data", Access: ReadWrite, Prefix: "team-a/"}},
		want: Policy{Version: PolicyVersion, Statements: []Statement{
			allowStmt(loc, []string{"arn:aws:s3:::data"}, nil),
			allowStmt(rwObjects, []string{"arn:aws:s3:::data/team-a/*"}, nil),
			allowStmt(rwList, []string{"arn:aws:s3:::data"}, prefixCond("team-a/*")),
		}},
	},
	"SeveralGrantsGroupedAndSorted": {
		reason: "grants of one level share statements; each prefixed listing has its own; order and duplicates do not matter",
		grants: []BucketGrant{{Bucket: "logs", Access: ReadOnly, Prefix: "app/"}, {Bucket: "bb2", Access: ReadWrite},
			{Bucket: "aa1", Access: ReadOnly}, {Bucket: "bb2", Access: ReadWrite}, {Bucket: "cc3", Access: ReadOnly, Prefix: "x"}},
		want: Policy{Version: PolicyVersion, Statements: []Statement{
			allowStmt(loc, []string{"arn:aws:s3:::aa1", "arn:aws:s3:::bb2", "arn:aws:s3:::cc3", "arn:aws:s3:::logs"}, nil),
			allowStmt(roList, []string{"arn:aws:s3:::aa1"}, nil),
			allowStmt(rwList, []string{"arn:aws:s3:::bb2"}, nil),
			allowStmt(roObjects, []string{"arn:aws:s3:::aa1/*", "arn:aws:s3:::cc3/x*", "arn:aws:s3:::logs/app/*"}, nil),
			allowStmt(rwObjects, []string{"arn:aws:s3:::bb2/*"}, nil),
			allowStmt(roList, []string{"arn:aws:s3:::cc3"}, prefixCond("x*")),
			allowStmt(roList, []string{"arn:aws:s3:::logs"}, prefixCond("app/*")),
		}},
	},
}

func TestSessionPolicy(t *testing.T) {
	for name, tc := range policyCases {
		t.Run(name, func(t *testing.T) {
			got, err := SessionPolicy(tc.grants)
			if err != nil {
				t.Fatalf("%s: SessionPolicy: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
			}
			if err := validateSessionPolicy(got); err != nil {
				t.Errorf("%s: the generated policy fails the client's own check: %v", tc.reason, err)
			}
			if again, _ := SessionPolicy(reversed(tc.grants)); !cmp.Equal(got, again) {
				t.Errorf("%s: the grant order changed the policy", tc.reason)
			}
		})
	}
}

func reversed(grants []BucketGrant) []BucketGrant {
	out := make([]BucketGrant, len(grants))
	for i, g := range grants {
		out[len(grants)-1-i] = g
	}
	return out
}

func TestSessionPolicyRefusals(t *testing.T) {
	many := make([]BucketGrant, 40)
	for i := range many {
		many[i] = BucketGrant{Bucket: fmt.Sprintf("bucket-%02d", i), Access: ReadWrite, Prefix: "some/long/prefix/"}
	}
	cases := map[string]struct {
		grants []BucketGrant
		want   string
	}{
		"NoGrants":         {want: "without buckets"},
		"WildcardBucket":   {grants: []BucketGrant{{Bucket: "team-*", Access: ReadOnly}}, want: "not a valid bucket name"},
		"SlashInBucket":    {grants: []BucketGrant{{Bucket: "a/b", Access: ReadOnly}}, want: "not a valid bucket name"},
		"ShortBucket":      {grants: []BucketGrant{{Bucket: "ab", Access: ReadOnly}}, want: "not a valid bucket name"},
		"DotDotBucket":     {grants: []BucketGrant{{Bucket: "a..b", Access: ReadOnly}}, want: "not a valid bucket name"},
		"UnknownAccess":    {grants: []BucketGrant{{Bucket: "data", Access: "Admin"}}, want: "must be ReadOnly or ReadWrite"},
		"EmptyAccess":      {grants: []BucketGrant{{Bucket: "data"}}, want: "must be ReadOnly or ReadWrite"},
		"StarInPrefix":     {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "a*"}}, want: "must not contain '*'"},
		"QuestionInPrefix": {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "a?"}}, want: "must not contain '*'"},
		"VariableInPrefix": {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "${aws:username}/"}}, want: "must not contain '*'"},
		"LeadingSlash":     {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "/a"}}, want: "must not start with '/'"},
		"DotDotSegment":    {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "a/../b/"}}, want: "'..'"},
		"DotSegment":       {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "./a"}}, want: "'..'"},
		"DoubleSlash":      {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "a//b"}}, want: "'//'"},
		"InvalidUTF8":      {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "\xb4"}}, want: "not valid UTF-8"},
		"ControlCharacter": {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly, Prefix: "a\nb"}}, want: "control characters"},
		"OneBadAmongGood":  {grants: []BucketGrant{{Bucket: "data", Access: ReadOnly}, {Bucket: "x", Access: ReadOnly}}, want: "bucket grant 1"},
		"LargerThanRustFS": {grants: many, want: "RustFS stores at most 4096"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := SessionPolicy(tc.grants)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error containing %q, got %v", tc.want, err)
			}
			if len(p.Statements) != 0 {
				t.Errorf("an error came with a policy of %d statements", len(p.Statements))
			}
		})
	}
}

// The largest grant list that fits is accepted: the limit is RustFS's, not
// a smaller one of the client's.
func TestSessionPolicyFitsUpToTheLimit(t *testing.T) {
	var grants []BucketGrant
	for i := 0; ; i++ {
		next := append(grants, BucketGrant{Bucket: fmt.Sprintf("bucket-%03d", i), Access: ReadOnly})
		p, err := SessionPolicy(next)
		if err != nil {
			break
		}
		b, _ := compactPolicy(p)
		if len(b) > MaxSessionPolicySize {
			t.Fatalf("accepted a %d-byte policy", len(b))
		}
		grants = next
	}
	t.Logf("%d unscoped ReadOnly buckets fit in one session policy", len(grants))
	if len(grants) < 30 {
		t.Errorf("only %d unscoped ReadOnly buckets fit in one session policy; want at least 30", len(grants))
	}
}
