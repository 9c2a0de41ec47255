package tenant

import (
	"flag"
	"os"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

var (
	// env is the API server every test of the package shares.
	env *testenv.Env

	// xp renders and validates with the real Crossplane engine and the
	// Tenant function, shared by every test of the package.
	xp *engine
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

// run starts the function and the API server, unless in short mode, where
// every test skips itself. Outside short mode a missing tool is an error.
func run(m *testing.M) int {
	flag.Parse()
	if !testing.Short() {
		e, err := startEngine()
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
		defer e.stop()
		xp = e
	}
	return testenv.Main(m, &env)
}
