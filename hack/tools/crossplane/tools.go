//go:build tools

// Package tools pins the Crossplane CLI for composition render and resource
// validate in the Tenant end-to-end test.
package tools

import _ "github.com/crossplane/cli/v2/cmd/crossplane"
