package rustfs

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParentUserName(t *testing.T) {
	long := strings.Repeat("n", 63)
	cases := map[string]struct {
		reason    string
		namespace string
		wantErr   bool
	}{
		"Plain":          {reason: "a usual namespace", namespace: "team-a"},
		"Short":          {reason: "one character is a valid namespace", namespace: "a"},
		"Longest":        {reason: "63 characters give the longest name", namespace: long},
		"Empty":          {reason: "no namespace", namespace: "", wantErr: true},
		"Upper":          {reason: "namespaces are lower case", namespace: "Team", wantErr: true},
		"Underscore":     {reason: "not an RFC 1123 label", namespace: "team_a", wantErr: true},
		"LeadingDash":    {reason: "must start with a letter or digit", namespace: "-team", wantErr: true},
		"TooLong":        {reason: "64 characters", namespace: long + "n", wantErr: true},
		"SeparatorInput": {reason: "a comma would split a policy mapping", namespace: "a,b", wantErr: true},
	}
	form := regexp.MustCompile(`^provider-rustfs-([a-z0-9-]+)-[a-z2-7]{8}$`)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParentUserName(tc.namespace)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("%s: want an error, got %q", tc.reason, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			m := form.FindStringSubmatch(got)
			if m == nil || m[1] != tc.namespace || len(got) > 88 {
				t.Errorf("%s: %q is not provider-rustfs-<namespace>-<hash> within 88 bytes", tc.reason, got)
			}
			if err := ValidateUserName(got); err != nil {
				t.Errorf("%s: the name breaks RustFS's user-name rules: %v", tc.reason, err)
			}
			if again, _ := ParentUserName(tc.namespace); again != got {
				t.Errorf("%s: not deterministic: %q then %q", tc.reason, got, again)
			}
		})
	}
}

// Names differ for every pair of namespaces, including ones that share a
// prefix or would look alike after the hash.
func TestParentUserNamesDoNotCollide(t *testing.T) {
	seen := map[string]string{}
	for _, ns := range []string{"a", "a-b", "a-b-c", "ab", "team", "team-a", "team-a-b", "team-ab", "0", "00"} {
		name, err := ParentUserName(ns)
		if err != nil {
			t.Fatal(err)
		}
		if other, ok := seen[name]; ok {
			t.Errorf("namespaces %q and %q share parent %q", other, ns, name)
		}
		seen[name] = ns
	}
}

// The bound allows every action a session policy can grant, so no grant is
// silently cut off, and nothing else.
func TestBoundingPolicyCoversSessionPolicies(t *testing.T) {
	bound, err := BoundingPolicy("team-a-")
	if err != nil {
		t.Fatal(err)
	}
	if len(bound.Statements) != 1 || bound.Statements[0].Effect != "Allow" ||
		!slices.Equal(bound.Statements[0].Resources, Values{"arn:aws:s3:::team-a-*"}) {
		t.Fatalf("bound: %+v", bound)
	}
	allowed := bound.Statements[0].Actions
	granted := map[string]bool{}
	for _, g := range [][]BucketGrant{{{Bucket: "team-a-x", Access: ReadOnly, Prefix: "p/"}}, {{Bucket: "team-a-x", Access: ReadWrite}},
		{{Bucket: "team-a-x", Access: ReadWrite, Prefix: "p/"}}, {{Bucket: "team-a-x", Access: ReadOnly}}} {
		p, err := SessionPolicy(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.Statements {
			for _, a := range s.Actions {
				granted[a] = true
				if !slices.Contains(allowed, a) {
					t.Errorf("SessionPolicy grants %s, which the bound does not allow", a)
				}
			}
		}
	}
	for _, a := range allowed {
		if !granted[a] || !strings.HasPrefix(a, "s3:") {
			t.Errorf("the bound allows %s, which no session policy grants", a)
		}
	}
}

func TestBoundingPolicyRefusesBadPrefixes(t *testing.T) {
	for _, prefix := range []string{"*", "team-a-*", "Team-", "team/", "a?", strings.Repeat("a", 63), "$x"} {
		if _, err := BoundingPolicy(prefix); err == nil {
			t.Errorf("BoundingPolicy(%q): want an error", prefix)
		}
	}
	if p, err := BoundingPolicy(""); err != nil || !slices.Equal(p.Statements[0].Resources, Values{"arn:aws:s3:::*"}) {
		t.Errorf(`BoundingPolicy(""): %v %+v; want every bucket`, err, p)
	}
}

// The prefixes of longer namespaces become one Deny statement with the
// bound's actions, sorted and without the prefixes another covers; without
// them the bound is what it always was.
func TestBoundingPolicyExcludesLongerNamespaces(t *testing.T) {
	allow := `{"Sid":"BucketAccessBound","Effect":"Allow","Action":["s3:AbortMultipartUpload","s3:DeleteObject",` +
		`"s3:GetBucketLocation","s3:GetObject","s3:ListBucket","s3:ListBucketMultipartUploads","s3:ListMultipartUploadParts",` +
		`"s3:PutObject"],"Resource":["arn:aws:s3:::team-*"]}`
	deny := func(resources string) string {
		return `{"Sid":"LongerNamespaces","Effect":"Deny","Action":["s3:AbortMultipartUpload","s3:DeleteObject",` +
			`"s3:GetBucketLocation","s3:GetObject","s3:ListBucket","s3:ListBucketMultipartUploads","s3:ListMultipartUploadParts",` +
			`"s3:PutObject"],"Resource":[` + resources + `]}`
	}
	cases := map[string]struct {
		reason   string
		excluded []string
		want     string
		wantErr  bool
	}{
		"None": {reason: "no longer namespace: the bound of before, byte for byte", want: `{"Version":"2012-10-17","Statement":[` + allow + `]}`},
		"TwoUnsorted": {reason: "two longer namespaces, in any order, give one sorted Deny", excluded: []string{"team-b-", "team-a-"},
			want: `{"Version":"2012-10-17","Statement":[` + allow + `,` + deny(`"arn:aws:s3:::team-a-*","arn:aws:s3:::team-b-*"`) + `]}`},
		"Covered": {reason: "team-a-b- is inside team-a-, and a duplicate adds nothing", excluded: []string{"team-a-b-", "team-a-", "team-a-"},
			want: `{"Version":"2012-10-17","Statement":[` + allow + `,` + deny(`"arn:aws:s3:::team-a-*"`) + `]}`},
		"NotLonger":  {reason: "a prefix the bound does not cover is not a longer namespace", excluded: []string{"other-"}, wantErr: true},
		"Same":       {reason: "excluding the namespace's own prefix would deny everything", excluded: []string{"team-"}, wantErr: true},
		"BadPattern": {reason: "a wildcard would deny more than the namespace", excluded: []string{"team-*"}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := BoundingPolicy("team-", tc.excluded...)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("%s: want an error, got %+v", tc.reason, p)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			got, err := compactPolicy(p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
