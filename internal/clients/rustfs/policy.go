package rustfs

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// PolicyVersion is the only IAM policy version RustFS accepts
// (docs/rustfs-wire.md §16.7).
const PolicyVersion = "2012-10-17"

// A Policy is an IAM policy document as RustFS reads a service account's
// session policy (docs/rustfs-wire.md §16.7). JSON keys are RustFS's.
type Policy struct {
	ID         string      `json:"ID,omitempty"`
	Version    string      `json:"Version"`
	Statements []Statement `json:"Statement"`
}

// A Statement is one policy statement. Action, Resource and the condition
// values may be a string or an array on the wire; they are always arrays here.
type Statement struct {
	Sid          string     `json:"Sid,omitempty"`
	Effect       string     `json:"Effect"`
	Actions      Values     `json:"Action,omitempty"`
	NotActions   Values     `json:"NotAction,omitempty"`
	Resources    Values     `json:"Resource,omitempty"`
	NotResources Values     `json:"NotResource,omitempty"`
	Conditions   Conditions `json:"Condition,omitempty"`
}

// Conditions map an operator (StringLike) to condition keys (s3:prefix) and
// their values.
type Conditions map[string]map[string]Values

// Values is a JSON string or array of strings, read into a slice.
type Values []string

// UnmarshalJSON accepts "a" and ["a", "b"]; null and other types are errors.
func (s *Values) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*s = Values{one}
		return nil
	}
	if len(b) == 0 || b[0] != '[' {
		return errors.New("want a string or an array of strings")
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*s = many
	return nil
}

// ParsePolicy reads a policy document as RustFS serves it in a service
// account's info (docs/rustfs-wire.md §16.4): a JSON object with ID, Version
// and Statement; statements with Sid, Effect, Action, NotAction, Resource,
// NotResource and Condition. Unknown keys are an error, as in RustFS. The
// server's text is never echoed in the error.
func ParsePolicy(text string) (Policy, error) {
	d := json.NewDecoder(bytes.NewReader([]byte(text)))
	d.DisallowUnknownFields()
	var p Policy
	if err := d.Decode(&p); err != nil {
		return Policy{}, errors.New("cannot decode policy: not an IAM policy document")
	}
	if d.More() {
		return Policy{}, errors.New("cannot decode policy: trailing data after the document")
	}
	return p, nil
}

// NormalisePolicy returns p in a canonical form for comparison: Version
// defaulted, every list sorted and free of duplicates (RustFS keeps actions
// and resources as sets and condition values as a hash set, so their order
// in an info answer varies, docs/rustfs-wire.md §16.4), empty lists and
// condition maps dropped, and statements sorted. Duplicate statements are
// kept: RustFS does not merge them in a session policy.
func NormalisePolicy(p Policy) Policy {
	out := Policy{ID: p.ID, Version: p.Version}
	if out.Version == "" {
		out.Version = PolicyVersion
	}
	for _, s := range p.Statements {
		out.Statements = append(out.Statements, normaliseStatement(s))
	}
	sort.SliceStable(out.Statements, func(i, j int) bool {
		return statementKey(out.Statements[i]) < statementKey(out.Statements[j])
	})
	return out
}

func normaliseStatement(s Statement) Statement {
	out := Statement{Sid: s.Sid, Effect: s.Effect, Actions: set(s.Actions), NotActions: set(s.NotActions),
		Resources: set(s.Resources), NotResources: set(s.NotResources)}
	for op, keys := range s.Conditions {
		for k, v := range keys {
			if out.Conditions == nil {
				out.Conditions = Conditions{}
			}
			if out.Conditions[op] == nil {
				out.Conditions[op] = map[string]Values{}
			}
			out.Conditions[op][k] = set(v)
		}
	}
	return out
}

// statementKey orders normalised statements: their compact JSON, where map
// keys are sorted.
func statementKey(s Statement) string {
	b, _ := json.Marshal(s) // strings, slices and maps of strings
	return string(b)
}

// set returns a sorted copy of v without duplicates, or nil when v is empty.
func set(v []string) Values {
	if len(v) == 0 {
		return nil
	}
	out := slices.Clone(v)
	slices.Sort(out)
	return slices.Compact(out)
}

// EqualPolicies reports whether a and b grant the same thing as RustFS reads
// them: equal after NormalisePolicy.
func EqualPolicies(a, b Policy) bool {
	x, err1 := json.Marshal(NormalisePolicy(a))
	y, err2 := json.Marshal(NormalisePolicy(b))
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// compactPolicy renders p as RustFS stores it, compact JSON, the form whose
// size RustFS limits to 4096 bytes (docs/rustfs-wire.md §16.2 step 10).
func compactPolicy(p Policy) ([]byte, error) {
	b, err := json.Marshal(p)
	return b, errors.Wrap(err, "cannot encode policy")
}
