package naming

import (
	"regexp"
	"slices"
	"strings"
)

// TierCharacters is the pattern of the characters a tier name may hold.
// RustFS refuses a name that upper-casing would change, and matches the
// name as a raw URL path segment when it edits or removes a tier, so a
// character that needs percent-encoding would make the tier impossible to
// edit (docs/rustfs-wire.md §3).
const TierCharacters = `^[A-Z0-9_.-]+$`

// ReservedTierNames are the storage class names RustFS refuses as tier
// names, in any case (docs/rustfs-wire.md §3.2).
var ReservedTierNames = []string{"STANDARD", "REDUCED_REDUNDANCY"}

var tierCharacters = regexp.MustCompile(TierCharacters)

// Tier are the rules of a RustFS tier name, which is also the storage
// class lifecycle transitions name. RustFS itself has no length limit; the
// schema does.
var Tier = Rules{
	Kind:      "tier name",
	MinLength: 1,
	MaxLength: 64,
	Rules: []Rule{
		{
			CEL: "self.matches('" + TierCharacters + "')",
			Message: "may contain only A-Z, 0-9, '_', '-' and '.': RustFS requires uppercase tier names, and uses the name " +
				"as a raw URL path segment when rotating credentials, so characters that need percent-encoding would make " +
				"the tier impossible to edit",
			broken: func(n string) bool { return !tierCharacters.MatchString(n) },
		},
		{
			CEL:     "self != '.' && self != '..'",
			Message: "must not be '.' or '..': RustFS uses the tier name as a URL path segment, where these are path navigation",
			broken:  func(n string) bool { return n == "." || n == ".." },
		},
		{
			CEL:     "!(self.upperAscii() in ['STANDARD', 'REDUCED_REDUNDANCY'])",
			Message: "must not be STANDARD or REDUCED_REDUNDANCY (in any case): RustFS reserves these storage class names",
			broken: func(n string) bool {
				return slices.ContainsFunc(ReservedTierNames, func(r string) bool { return strings.EqualFold(n, r) })
			},
		},
	},
}

// TierName returns an *Error when name is not a valid tier name.
func TierName(name string) error { return Tier.Check(name) }
