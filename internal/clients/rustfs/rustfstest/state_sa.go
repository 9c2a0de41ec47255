package rustfstest

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// A serviceAccount is one stored service account (docs/rustfs-wire.md §16).
type serviceAccount struct {
	accessKey, secretKey string
	parent               string     // the parent user's access key
	status               string     // "on" or "off"
	name, description    *string    // nil: never set
	expiration           time.Time  // zero: none
	policy               *iamPolicy // the session policy; nil: inherited from the parent
}

// A ServiceAccountRecord is a stored service account as tests see it,
// including the real secret key (tests may compare it; they must not print
// it).
type ServiceAccountRecord struct {
	AccessKey   string
	SecretKey   string
	Parent      string
	Status      string
	Name        string
	Description string
	Expiration  time.Time
	// Policy is the session policy as RustFS stores it (compact JSON), ""
	// when the account inherits its parent's policies.
	Policy string
}

func (a *serviceAccount) record() ServiceAccountRecord {
	r := ServiceAccountRecord{AccessKey: a.accessKey, SecretKey: a.secretKey, Parent: a.parent, Status: a.status,
		Name: deref(a.name), Description: deref(a.description), Expiration: a.expiration}
	if a.policy != nil {
		r.Policy = a.policy.render(false)
	}
	return r
}

// ServiceAccount returns one stored service account.
func (e *Emulator) ServiceAccount(accessKey string) (ServiceAccountRecord, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[accessKey]
	if !ok {
		return ServiceAccountRecord{}, false
	}
	return a.record(), true
}

// ServiceAccounts returns every stored service account, sorted by access key.
func (e *Emulator) ServiceAccounts() []ServiceAccountRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]ServiceAccountRecord, 0, len(e.accounts))
	for _, a := range e.accounts {
		out = append(out, a.record())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AccessKey < out[j].AccessKey })
	return out
}

// isRootParented reports whether the account's parent is the root user.
func (e *Emulator) isRootParented(a *serviceAccount) bool { return a.parent == e.root.accessKey }

// keyInUse reports whether a user, service account or the root already has
// the access key (manager.rs › add_service_account). Callers hold e.mu.
func (e *Emulator) keyInUse(accessKey string) bool {
	_, user := e.users[accessKey]
	_, svc := e.accounts[accessKey]
	return user || svc || accessKey == e.root.accessKey
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// SeedServiceAccount stores a service account out of band, replacing one
// with the same access key, with no permission or key checks; for example
// to change a session policy behind the provider's back. Policy is parsed
// as add parses it ("" and {} mean none); an invalid policy is an error and
// stores nothing. An empty Status means "on".
func (e *Emulator) SeedServiceAccount(r ServiceAccountRecord) error {
	var policy *iamPolicy
	if r.Policy != "" {
		n, err := parseJSONTree([]byte(r.Policy))
		if err != nil {
			return fmt.Errorf("seed service account %q: policy is not JSON", r.AccessKey)
		}
		var perr *s3Error
		if policy, perr = newSessionPolicy(&n); perr != nil {
			return fmt.Errorf("seed service account %q: %s", r.AccessKey, perr.message)
		}
	}
	a := &serviceAccount{accessKey: r.AccessKey, secretKey: r.SecretKey, parent: r.Parent, status: r.Status,
		expiration: r.Expiration, policy: policy}
	if r.Name != "" {
		a.name = &r.Name
	}
	if r.Description != "" {
		a.description = &r.Description
	}
	if a.status == "" {
		a.status = "on"
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if a.parent == "" {
		a.parent = e.root.accessKey
	}
	e.accounts[a.accessKey] = a
	return nil
}

// RenderSessionPolicy parses a session policy as add does and renders it as
// RustFS stores it (compact) or as an info answer carries it (pretty), for
// round-trip tests. A policy RustFS refuses is an error with its message.
func RenderSessionPolicy(policy []byte, pretty bool) (string, error) {
	n, err := parseJSONTree(policy)
	if err != nil {
		return "", errors.New("policy is not JSON")
	}
	p, perr := newSessionPolicy(&n)
	if perr != nil {
		return "", errors.New(perr.message)
	}
	if p == nil {
		return "", nil
	}
	return p.render(pretty), nil
}
