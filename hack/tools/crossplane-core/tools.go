//go:build tools

// Package tools pins the Crossplane core binary, which `crossplane composition
// render` runs through --crossplane-binary instead of a Docker image.
package tools

import _ "github.com/crossplane/crossplane/v2/cmd/crossplane"
