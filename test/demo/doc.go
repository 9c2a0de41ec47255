// Package demo runs the README's first command as CI: bin/demo -once, built
// and started as `make demo DEMOFLAGS=-once` does, from a state with no demo
// left over, and checks that it ends with every resource Ready and the key
// proof passed, and that it leaves no process, port or temporary directory
// behind; and that a failing run exits non-zero and names the logs it kept.
//
// Run it with `make demo-test` (part of `make test`), which builds the
// binaries and sets KUBEBUILDER_ASSETS; `go test -short` skips it.
package demo
