package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
)

// runRegistry is `xpkgtool registry`: it serves an in-memory OCI registry
// (go-containerregistry's registry package) over plain HTTP on a loopback
// address, prints that address on the first line of its output, and serves
// until it is interrupted or terminated. The install test pushes the built
// packages to it and Crossplane pulls them from it.
func runRegistry(args []string) error {
	var addr string
	var verbose bool
	fs := flag.NewFlagSet("registry", flag.ContinueOnError)
	fs.StringVar(&addr, "addr", "127.0.0.1:0", "the address to listen on")
	fs.BoolVar(&verbose, "v", false, "log every request to standard error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	logs := io.Discard
	if verbose {
		logs = os.Stderr
	}
	srv := &http.Server{
		Handler:           registry.New(registry.Logger(log.New(logs, "registry: ", log.LstdFlags))),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Println(l.Addr().String())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-stop
		_ = srv.Close()
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
