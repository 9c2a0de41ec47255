// Command function serves the Tenant composition function over gRPC. In a
// cluster Crossplane runs it with mTLS certificates from
// TLS_SERVER_CERTS_DIR; for `crossplane composition render` run it locally
// with --insecure --address=127.0.0.1:PORT.
package main

import (
	"os"
	"path/filepath"

	"github.com/alecthomas/kingpin/v2"

	function "github.com/crossplane/function-sdk-go"
	"github.com/crossplane/function-sdk-go/logging"

	"github.com/crossplane-contrib/provider-rustfs/internal/function/tenant"
	"github.com/crossplane-contrib/provider-rustfs/internal/version"
)

// flags are the function's command line.
type flags struct {
	debug       bool
	network     string
	address     string
	certsDir    string
	insecure    bool
	metricsAddr string
	maxRecvSize int
}

func parse(args []string) flags {
	var f flags
	app := kingpin.New(filepath.Base(os.Args[0]), "Crossplane composition function that renders RustFS Tenants into Tiers, Buckets and BucketLifecycles.")
	app.Version(version.Version)
	app.Flag("debug", "Run with debug logging.").Short('d').Envar("DEBUG").BoolVar(&f.debug)
	app.Flag("network", "Network on which to listen for gRPC connections.").Default("tcp").Envar("NETWORK").StringVar(&f.network)
	app.Flag("address", "Address at which to listen for gRPC connections.").Default(":9443").Envar("ADDRESS").StringVar(&f.address)
	app.Flag("tls-server-certs-dir", "Directory holding the server's tls.crt, tls.key and the clients' ca.crt (mTLS).").Envar("TLS_SERVER_CERTS_DIR").StringVar(&f.certsDir)
	app.Flag("insecure", "Serve without mTLS, for local development and crossplane composition render only.").Envar("INSECURE").BoolVar(&f.insecure)
	app.Flag("metrics-address", "Address the Prometheus metrics endpoint listens on; empty disables it.").Default(":8080").Envar("METRICS_ADDRESS").StringVar(&f.metricsAddr)
	app.Flag("max-recv-message-size", "Maximum size in bytes of a RunFunctionRequest.").Default("4194304").Envar("MAX_RECV_MESSAGE_SIZE").IntVar(&f.maxRecvSize)
	kingpin.MustParse(app.Parse(args))
	return f
}

func main() {
	f := parse(os.Args[1:])
	log, err := function.NewLogger(f.debug)
	kingpin.FatalIfError(err, "Cannot create logger")
	log.Info("Starting function", "version", version.Version, "address", f.address, "insecure", f.insecure)
	kingpin.FatalIfError(serve(f, log), "Cannot serve the function")
}

// serve serves the Tenant function until it fails.
func serve(f flags, log logging.Logger) error {
	return function.Serve(tenant.NewFunction(log),
		function.Listen(f.network, f.address),
		function.MTLSCertificates(f.certsDir),
		function.Insecure(f.insecure),
		function.WithMetricsServer(f.metricsAddr),
		function.MaxRecvMessageSize(f.maxRecvSize),
	)
}
