// Package naming holds the rules RustFS and S3 put on the names the
// provider writes, one validator per rule set, for every caller: the
// controllers, custody, the Tenant composition function and the RustFS
// client.
//
// Each rule is an entry of a table with its Go check, the CEL expression
// that states it on a CRD or XRD, and its message. The CEL copies live in
// kubebuilder markers on the API types (apis/v1alpha1,
// internal/function/tenant); a test holds every copy to this table, and an
// API-server test runs one corpus of names through the Go validator, the
// CEL rules and the Tenant function, which must agree.
package naming

import "fmt"

// A Rule is one naming rule.
type Rule struct {
	// CEL is an expression over self that holds for a name keeping the
	// rule, as the CRDs and XRDs carry it.
	CEL string

	// Message says what the rule asks, without a subject ("must not be
	// '.' or '..': ..."), so that every caller can name its field.
	Message string

	// broken reports whether name breaks the rule.
	broken func(name string) bool
}

// A Rules is the rule set of one kind of name. Length is checked first,
// as the schema's minLength and maxLength; then each rule in order.
type Rules struct {
	// Kind names the kind of name in errors ("tier name").
	Kind string

	// MinLength and MaxLength bound the name's length in bytes.
	MinLength, MaxLength int

	// Rules are checked in order after the length.
	Rules []Rule
}

// LengthMessage is the message of the length rule.
func (r Rules) LengthMessage() string {
	return fmt.Sprintf("must be %d to %d characters long", r.MinLength, r.MaxLength)
}

// Check returns an *Error naming the first rule name breaks, or nil.
func (r Rules) Check(name string) error {
	if broken := r.Broken(name); broken != "" {
		return &Error{Kind: r.Kind, Name: name, Rule: broken}
	}
	return nil
}

// CheckField returns an error naming field and what to set it to when
// name, the value of field, breaks a rule; nil otherwise.
func (r Rules) CheckField(field, name string) error {
	broken := r.Broken(name)
	if broken == "" {
		return nil
	}
	return fmt.Errorf("%s %q is not a valid %s: it %s. Set %s to a %s that keeps these rules", field, name, r.Kind, broken, field, r.Kind)
}

// Broken returns the message of the first rule name breaks, or "".
func (r Rules) Broken(name string) string {
	if len(name) < r.MinLength || len(name) > r.MaxLength {
		return r.LengthMessage()
	}
	for _, rule := range r.Rules {
		if rule.broken(name) {
			return rule.Message
		}
	}
	return ""
}

// CELs returns the CEL expressions of the rules, in order.
func (r Rules) CELs() []string {
	out := make([]string, len(r.Rules))
	for i, rule := range r.Rules {
		out[i] = rule.CEL
	}
	return out
}

// An Error is a name that breaks a rule.
type Error struct {
	// Kind is the kind of name ("bucket name").
	Kind string
	// Name is the name that breaks the rule.
	Name string
	// Rule is the broken rule's message.
	Rule string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%q is not a valid %s: it %s", e.Name, e.Kind, e.Rule)
}
