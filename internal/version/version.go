// Package version holds the build version of the provider binaries.
package version

// Version is the provider version, set at build time with
// -ldflags "-X github.com/crossplane-contrib/provider-rustfs/internal/version.Version=v0.1.0".
var Version = "dev"
