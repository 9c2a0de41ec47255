// Command rustfs-emulator serves the rustfstest RustFS emulator as a
// standalone server for local demos and manual testing. With
// --remote-listen it also serves a second "remote" instance that tiers can
// point at, under the host name --remote-name (a RustFS 1.0.x GA refuses
// loopback tier endpoints but never resolves names: the main instance maps
// that name to the remote's address itself). It logs requests (method, path,
// route, status), never bodies.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// options are the command-line flags.
type options struct {
	listen, accessKey, secretKey, mode, region                   string
	remoteListen, remoteAccessKey, remoteSecretKey, remoteBucket string
	remoteName                                                   string
	buckets                                                      stringList
	quiet                                                        bool
}

type stringList []string

func (s *stringList) String() string     { return fmt.Sprint(*s) }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("rustfs-emulator", flag.ContinueOnError)
	fs.StringVar(&o.listen, "listen", "127.0.0.1:9000", "address of the emulated RustFS")
	fs.StringVar(&o.accessKey, "access-key", rustfstest.DefaultAccessKey, "root access key")
	fs.StringVar(&o.secretKey, "secret-key", rustfstest.DefaultSecretKey, "root secret key")
	fs.StringVar(&o.mode, "mode", "ga", "RustFS release to emulate: ga (1.0.x) or rc (1.0.0-rc.3)")
	fs.StringVar(&o.region, "region", rustfstest.DefaultRegion, "server region reported by GetBucketLocation")
	fs.Var(&o.buckets, "bucket", "bucket to create on the main instance (repeatable)")
	fs.StringVar(&o.remoteListen, "remote-listen", "", "address of a second, remote instance for tiers (empty: none)")
	fs.StringVar(&o.remoteAccessKey, "remote-access-key", "remote-admin", "root access key of the remote instance")
	fs.StringVar(&o.remoteSecretKey, "remote-secret-key", "remote-admin-secret", "root secret key of the remote instance")
	fs.StringVar(&o.remoteBucket, "remote-bucket", "tier-bucket", "bucket to create on the remote instance")
	fs.StringVar(&o.remoteName, "remote-name", "remote.rustfs.test", "host name tiers use for the remote instance; only this emulator resolves it")
	fs.BoolVar(&o.quiet, "quiet", false, "do not log requests")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if _, ok := rustfstest.ParseMode(o.mode); !ok {
		return o, fmt.Errorf("--mode must be ga or rc, not %q", o.mode)
	}
	return o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		log.Fatal(err)
	}
}

// run serves until ctx is done, then shuts the servers down.
func run(ctx context.Context, o options) error {
	mode, _ := rustfstest.ParseMode(o.mode)
	var servers []*http.Server
	if o.remoteListen != "" {
		remote := rustfstest.New(append(common(o, mode, "remote"), rustfstest.WithRootCredentials(o.remoteAccessKey, o.remoteSecretKey),
			rustfstest.WithVirtualHostDomain(o.remoteName))...)
		remote.CreateBucket(o.remoteBucket, false)
		srv, err := serve(o.remoteListen, remote.Handler())
		if err != nil {
			return err
		}
		servers = append(servers, srv)
		log.Printf("remote RustFS (%s) on http://%s, access key %s, bucket %s; tiers reach it as %s", mode, o.remoteListen,
			o.remoteAccessKey, o.remoteBucket, remoteEndpoint(o))
	}
	localOpts := append(common(o, mode, "local"), rustfstest.WithRootCredentials(o.accessKey, o.secretKey))
	if o.remoteListen != "" {
		localOpts = append(localOpts, rustfstest.WithRemoteAlias(o.remoteName, o.remoteListen))
	}
	local := rustfstest.New(localOpts...)
	for _, b := range o.buckets {
		local.CreateBucket(b, false)
	}
	srv, err := serve(o.listen, local.Handler())
	if err != nil {
		shutdown(servers)
		return err
	}
	servers = append(servers, srv)
	log.Printf("RustFS emulator (%s) on http://%s, access key %s", mode, o.listen, o.accessKey)
	<-ctx.Done()
	log.Print("shutting down")
	shutdown(servers)
	return nil
}

func common(o options, mode rustfstest.Mode, name string) []rustfstest.Option {
	opts := []rustfstest.Option{rustfstest.WithMode(mode), rustfstest.WithRegion(o.region)}
	if !o.quiet {
		logger := log.New(os.Stderr, name+" ", log.LstdFlags)
		opts = append(opts, rustfstest.WithRequestLog(logger.Printf))
	}
	return opts
}

// remoteEndpoint is the tier endpoint of the remote instance.
func remoteEndpoint(o options) string {
	_, port, err := net.SplitHostPort(o.remoteListen)
	if err != nil {
		return "http://" + o.remoteName
	}
	return "http://" + net.JoinHostPort(o.remoteName, port)
}

// serve listens on addr and serves h in the background.
func serve(addr string, h http.Handler) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("serve %s: %v", addr, err)
		}
	}()
	return srv, nil
}

func shutdown(servers []*http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, s := range servers {
		_ = s.Shutdown(ctx)
	}
}
