package e2e

import (
	"os"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// env is the API server every test of the package shares.
var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}
