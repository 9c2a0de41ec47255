package main

import (
	"context"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

func TestParseFlagsRejectsUnknownMode(t *testing.T) {
	if _, err := parseFlags([]string{"--mode", "beta"}); err == nil {
		t.Error("--mode beta: want an error")
	}
	o, err := parseFlags([]string{"--mode", "rc", "--bucket", "a", "--bucket", "b"})
	if err != nil || o.mode != "rc" || len(o.buckets) != 2 {
		t.Errorf("parseFlags: %+v, %v", o.buckets, err)
	}
}

// bucketExists asks the emulator at addr, with the given root credentials,
// whether bucket exists.
func bucketExists(t *testing.T, addr, accessKey, secretKey, bucket string) (bool, error) {
	c := testenv.RustFSClient(t, rustfs.Config{Endpoint: "http://" + addr, AccessKey: accessKey, SecretKey: secretKey, Timeout: 5 * time.Second})
	return c.BucketExists(context.Background(), bucket)
}

// run serves both instances, with the credentials and buckets of its
// options, until the context is done; then it stops serving and returns
// nil.
func TestRunServesUntilContextIsDone(t *testing.T) {
	o := options{listen: testenv.MustFreeAddr(t), remoteListen: testenv.MustFreeAddr(t), mode: "ga", region: "us-east-1",
		accessKey: "local-admin", secretKey: "local-secret", buckets: stringList{"a-bucket"},
		remoteAccessKey: "remote-admin", remoteSecretKey: "remote-secret", remoteBucket: "tier-bucket", quiet: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, o) }()
	exited := func() error {
		select {
		case err := <-done:
			t.Fatalf("run returned before its context was done: %v", err)
		default:
		}
		return nil
	}
	for _, addr := range []string{o.listen, o.remoteListen} {
		if err := testenv.WaitListening(ctx, addr, 30*time.Second, exited); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []struct{ addr, ak, sk, bucket string }{
		{o.listen, o.accessKey, o.secretKey, "a-bucket"},
		{o.remoteListen, o.remoteAccessKey, o.remoteSecretKey, o.remoteBucket},
	} {
		if ok, err := bucketExists(t, s.addr, s.ak, s.sk, s.bucket); err != nil || !ok {
			t.Errorf("bucket %s on %s with access key %s: got %t, %v; want it to exist", s.bucket, s.addr, s.ak, ok, err)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not stop within 30s of its context ending")
	}
	if _, err := bucketExists(t, o.listen, o.accessKey, o.secretKey, "a-bucket"); err == nil {
		t.Errorf("%s still answers after run returned", o.listen)
	}
}
