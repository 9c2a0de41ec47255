package main

import (
	"context"
	"testing"
	"time"
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

func TestRunStopsWhenContextIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, options{listen: "127.0.0.1:0", remoteListen: "127.0.0.1:0", mode: "ga", region: "us-east-1",
			accessKey: "a", secretKey: "b", remoteAccessKey: "c", remoteSecretKey: "d", remoteBucket: "tier-bucket", quiet: true})
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not stop")
	}
}
