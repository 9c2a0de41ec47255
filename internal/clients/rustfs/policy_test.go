package rustfs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// infoPolicy is a policy as RustFS's info answer renders it
// (docs/rustfs-wire.md §16.4): pretty, arrays for actions and resources, a
// single condition value as a string.
const infoPolicy = `{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": [
        "s3:ListBucket",
        "s3:ListBucketMultipartUploads"
      ],
      "Resource": [
        "arn:aws:s3:::data"
      ],
      "Condition": {
        "StringLike": {
          "s3:prefix": "team-a/*"
        }
      }
    },
    {
      "Effect": "Allow",
      "Action": [
        "s3:GetBucketLocation"
      ],
      "Resource": [
        "arn:aws:s3:::data"
      ]
    }
  ]
}`

func TestParsePolicy(t *testing.T) {
	cases := map[string]struct {
		reason  string
		text    string
		want    Policy
		wantErr bool
	}{
		"InfoForm": {
			reason: "the info rendering reads back, a single condition value as a one-element list",
			text:   infoPolicy,
			want: Policy{Version: PolicyVersion, Statements: []Statement{
				allowStmt([]string{"s3:ListBucket", "s3:ListBucketMultipartUploads"}, []string{"arn:aws:s3:::data"}, prefixCond("team-a/*")),
				allowStmt(loc, []string{"arn:aws:s3:::data"}, nil),
			}},
		},
		"StringsAndNotForms": {
			reason: "Action and Resource may be strings; Sid, ID, NotAction and NotResource are read",
			text:   `{"ID":"x","Version":"2012-10-17","Statement":[{"Sid":"s","Effect":"Deny","NotAction":"s3:GetObject","NotResource":"arn:aws:s3:::a/*"}]}`,
			want: Policy{ID: "x", Version: PolicyVersion, Statements: []Statement{{Sid: "s", Effect: "Deny",
				NotActions: Values{"s3:GetObject"}, NotResources: Values{"arn:aws:s3:::a/*"}}}},
		},
		"UnknownKey":      {reason: "RustFS refuses unknown keys, so one means this is not its policy", text: `{"Version":"2012-10-17","Statement":[],"Extra":1}`, wantErr: true},
		"UnknownStmtKey":  {reason: "unknown statement keys too", text: `{"Statement":[{"Effect":"Allow","Principal":"*"}]}`, wantErr: true},
		"NullAction":      {reason: "null is not a list", text: `{"Statement":[{"Effect":"Allow","Action":null}]}`, wantErr: true},
		"NumberResource":  {reason: "a number is not a list", text: `{"Statement":[{"Effect":"Allow","Resource":[1]}]}`, wantErr: true},
		"NotJSON":         {reason: "garbage", text: `{"Version":`, wantErr: true},
		"TrailingData":    {reason: "two documents", text: `{} {}`, wantErr: true},
		"EmptyConditions": {reason: "an empty Condition reads as none", text: `{"Statement":[{"Effect":"Allow","Condition":{}}]}`, want: Policy{Statements: []Statement{{Effect: "Allow", Conditions: Conditions{}}}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParsePolicy(tc.text)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s: error %v, want error %t", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEqualPolicies(t *testing.T) {
	base := func() Policy {
		return Policy{Version: PolicyVersion, Statements: []Statement{
			allowStmt([]string{"s3:GetObject", "s3:PutObject"}, []string{"arn:aws:s3:::a/*", "arn:aws:s3:::b/*"}, nil),
			allowStmt(roList, []string{"arn:aws:s3:::a"}, Conditions{"StringLike": {"s3:prefix": {"x*", "y*"}}}),
		}}
	}
	cases := map[string]struct {
		reason string
		modify func(p *Policy)
		equal  bool
	}{
		"Same":               {reason: "a policy equals itself", modify: func(*Policy) {}, equal: true},
		"StatementOrder":     {reason: "statement order does not matter", modify: func(p *Policy) { p.Statements[0], p.Statements[1] = p.Statements[1], p.Statements[0] }, equal: true},
		"ActionOrder":        {reason: "RustFS keeps actions as a set", modify: func(p *Policy) { p.Statements[0].Actions = Values{"s3:PutObject", "s3:GetObject"} }, equal: true},
		"DuplicateResource":  {reason: "RustFS drops duplicate resources", modify: func(p *Policy) { p.Statements[0].Resources = append(p.Statements[0].Resources, "arn:aws:s3:::a/*") }, equal: true},
		"ConditionOrder":     {reason: "condition values are a hash set", modify: func(p *Policy) { p.Statements[1].Conditions["StringLike"]["s3:prefix"] = Values{"y*", "x*"} }, equal: true},
		"MissingVersion":     {reason: "an empty Version is the default one", modify: func(p *Policy) { p.Version = "" }, equal: true},
		"ExtraAction":        {reason: "another action is drift", modify: func(p *Policy) { p.Statements[0].Actions = append(p.Statements[0].Actions, "s3:DeleteObject") }},
		"OtherResource":      {reason: "another bucket is drift", modify: func(p *Policy) { p.Statements[0].Resources[1] = "arn:aws:s3:::c/*" }},
		"OtherCondition":     {reason: "another prefix is drift", modify: func(p *Policy) { p.Statements[1].Conditions["StringLike"]["s3:prefix"] = Values{"x*"} }},
		"NoCondition":        {reason: "a dropped condition is drift", modify: func(p *Policy) { p.Statements[1].Conditions = nil }},
		"Deny":               {reason: "the effect matters", modify: func(p *Policy) { p.Statements[0].Effect = "Deny" }},
		"NotResource":        {reason: "an added NotResource is drift", modify: func(p *Policy) { p.Statements[0].NotResources = Values{"arn:aws:s3:::z"} }},
		"ExtraStatement":     {reason: "an added statement is drift", modify: func(p *Policy) { p.Statements = append(p.Statements, p.Statements[0]) }},
		"Sid":                {reason: "a Sid is part of the document", modify: func(p *Policy) { p.Statements[0].Sid = "x" }},
		"OperatorIsNotAlias": {reason: "StringEquals is not StringLike", modify: func(p *Policy) { p.Statements[1].Conditions = Conditions{"StringEquals": {"s3:prefix": {"x*", "y*"}}} }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := base()
			tc.modify(&p)
			if got := EqualPolicies(base(), p); got != tc.equal {
				t.Errorf("%s: EqualPolicies = %t, want %t", tc.reason, got, tc.equal)
			}
			if got := EqualPolicies(p, base()); got != tc.equal {
				t.Errorf("%s: EqualPolicies is not symmetric", tc.reason)
			}
			n := NormalisePolicy(p)
			if !cmp.Equal(n, NormalisePolicy(n)) {
				t.Errorf("%s: NormalisePolicy is not idempotent", tc.reason)
			}
		})
	}
}

func TestPolicyMatches(t *testing.T) {
	want, err := SessionPolicy([]BucketGrant{{Bucket: "data", Access: ReadWrite, Prefix: "team-a/"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compactPolicy(want)
	cases := map[string]struct {
		info  ServiceAccountInfo
		match bool
	}{
		"SamePolicy":       {info: ServiceAccountInfo{Policy: string(b)}, match: true},
		"OtherPolicy":      {info: ServiceAccountInfo{Policy: infoPolicy}},
		"ImpliedPolicy":    {info: ServiceAccountInfo{Policy: string(b), ImpliedPolicy: true}},
		"UnreadablePolicy": {info: ServiceAccountInfo{Policy: "{"}},
		"NoPolicy":         {info: ServiceAccountInfo{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.info.PolicyMatches(want); got != tc.match {
				t.Errorf("PolicyMatches = %t, want %t", got, tc.match)
			}
		})
	}
}
