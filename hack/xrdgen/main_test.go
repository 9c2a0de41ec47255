package main

import (
	"os"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// env is the API server the package's integration tests share; nil in
// short mode.
var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}
