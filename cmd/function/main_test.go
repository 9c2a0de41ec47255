package main

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/crossplane/function-sdk-go/logging"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/resource"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

func TestParse(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   []string
		want   flags
	}{
		"Defaults": {
			reason: "Crossplane starts the image without arguments: mTLS on :9443, metrics on :8080.",
			want:   flags{network: "tcp", address: ":9443", metricsAddr: ":8080", maxRecvSize: 4194304},
		},
		"Render": {
			reason: "crossplane composition render needs an insecure server on a chosen address.",
			args:   []string{"--insecure", "--address=127.0.0.1:9443", "--metrics-address="},
			want:   flags{network: "tcp", address: "127.0.0.1:9443", insecure: true, maxRecvSize: 4194304},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, parse(tc.args), cmp.AllowUnexported(flags{})); diff != "" {
				t.Errorf("%s\nparse(%v): -want +got:\n%s", tc.reason, tc.args, diff)
			}
		})
	}
}

// The binary's server answers RunFunction over insecure gRPC, as
// crossplane composition render calls it. The server runs until the test
// binary exits.
func TestServeInsecure(t *testing.T) {
	addr := testenv.MustFreeAddr(t)
	errs := make(chan error, 1)
	go func() {
		errs <- serve(flags{network: "tcp", address: addr, insecure: true, maxRecvSize: 4194304}, logging.NewNopLogger())
	}()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	xr := `{"apiVersion":"storage.rustfs.crossplane.io/v1alpha1","kind":"Tenant","metadata":{"name":"t","namespace":"ns"},
		"spec":{"buckets":[{"name":"app-data"}]}}`
	req := &fnv1.RunFunctionRequest{Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: resource.MustStructJSON(xr)}}}
	rsp, err := fnv1.NewFunctionRunnerServiceClient(conn).RunFunction(ctx, req, grpc.WaitForReady(true))
	if err != nil {
		select {
		case serr := <-errs:
			t.Fatalf("serve: %v", serr)
		default:
			t.Fatalf("RunFunction over gRPC: %v", err)
		}
	}
	if _, ok := rsp.GetDesired().GetResources()["bucket-app-data"]; !ok {
		t.Errorf("RunFunction over gRPC rendered %v, want bucket-app-data", rsp.GetDesired().GetResources())
	}
}
