package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A target is the RustFS the provider manages and the remote storage its
// tiers point at.
type target struct {
	endpoint, accessKey, secretKey                         string
	tierEndpoint, tierBucket, tierAccessKey, tierSecretKey string
	emulated                                               bool
}

// The environment variables that select a real RustFS.
var realVars = []string{
	"RUSTFS_ENDPOINT", "RUSTFS_ACCESS_KEY", "RUSTFS_SECRET_KEY",
	"RUSTFS_TIER_ENDPOINT", "RUSTFS_TIER_BUCKET", "RUSTFS_TIER_ACCESS_KEY", "RUSTFS_TIER_SECRET_KEY",
}

// target returns the real RustFS named by the environment, or starts the
// emulator and returns it.
func (d *demo) target(ctx context.Context) (target, error) {
	if os.Getenv("RUSTFS_ENDPOINT") == "" {
		docs, err := load(d.examples)
		if err != nil {
			return target{}, err
		}
		return d.emulate(ctx, "emulator", observedBuckets(docs)...)
	}
	var missing []string
	for _, v := range realVars {
		if os.Getenv(v) == "" {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		return target{}, errors.Errorf("RUSTFS_ENDPOINT is set, so the demo targets a real RustFS, but %s %s not set",
			strings.Join(missing, ", "), map[bool]string{true: "is", false: "are"}[len(missing) == 1])
	}
	t := target{
		endpoint: os.Getenv("RUSTFS_ENDPOINT"), accessKey: os.Getenv("RUSTFS_ACCESS_KEY"), secretKey: os.Getenv("RUSTFS_SECRET_KEY"),
		tierEndpoint: os.Getenv("RUSTFS_TIER_ENDPOINT"), tierBucket: os.Getenv("RUSTFS_TIER_BUCKET"),
		tierAccessKey: os.Getenv("RUSTFS_TIER_ACCESS_KEY"), tierSecretKey: os.Getenv("RUSTFS_TIER_SECRET_KEY"),
	}
	fmt.Fprintf(d.out, "target: RustFS at %s, tiers on %s bucket %s\n", t.endpoint, t.tierEndpoint, t.tierBucket)
	return t, nil
}

// emulate starts bin/rustfs-emulator, logging to <name>.log, with a local
// and a remote instance on free loopback ports and fresh random
// credentials, and buckets on the local instance.
func (d *demo) emulate(ctx context.Context, name string, buckets ...string) (target, error) {
	local, err := testenv.FreeAddr()
	if err != nil {
		return target{}, err
	}
	remote, err := testenv.FreeAddr()
	if err != nil {
		return target{}, err
	}
	t := target{
		endpoint: "http://" + local, accessKey: "demo-admin", secretKey: randomKey(),
		tierEndpoint: "http://" + remoteName + ":" + port(remote), tierBucket: "tiers", tierAccessKey: "demo-tier", tierSecretKey: randomKey(),
		emulated: true,
	}
	args := []string{"--listen", local, "--access-key", t.accessKey, "--secret-key", t.secretKey,
		"--remote-listen", remote, "--remote-access-key", t.tierAccessKey, "--remote-secret-key", t.tierSecretKey,
		"--remote-bucket", t.tierBucket, "--remote-name", remoteName}
	for _, b := range buckets {
		args = append(args, "--bucket", b)
	}
	c, err := d.spawn(name, nil, d.bin("rustfs-emulator"), args...)
	if err != nil {
		return target{}, err
	}
	for _, addr := range []string{local, remote} {
		if err := testenv.WaitListening(ctx, addr, 15*time.Second, c.Alive); err != nil {
			return target{}, err
		}
	}
	fmt.Fprintf(d.out, "RustFS %s: local %s, remote %s (tier bucket %s)\n", name, t.endpoint, t.tierEndpoint, t.tierBucket)
	return t, nil
}

// observedBuckets are the buckets of the Bucket examples that only observe
// (managementPolicies ["Observe"]): they import a bucket that exists
// already, so the emulator starts with them.
func observedBuckets(docs []*unstructured.Unstructured) []string {
	var out []string
	for _, u := range docs {
		if u.GetKind() != v1alpha1.BucketKind || u.GroupVersionKind().Group != v1alpha1.Group {
			continue
		}
		policies, _, _ := unstructured.NestedStringSlice(u.Object, "spec", "managementPolicies")
		if len(policies) != 1 || policies[0] != string(xpv2.ManagementActionObserve) {
			continue
		}
		name := meta.GetExternalName(u)
		if name == "" {
			name = u.GetName()
		}
		out = append(out, name)
	}
	return out
}

// remoteName is the host name tiers use for the emulated remote: RustFS
// 1.0.x GA refuses loopback tier endpoints, and the emulator resolves this
// name to the remote instance itself.
const remoteName = "remote.rustfs.test"

func port(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}

// randomKey returns a fresh secret key; it is never printed.
func randomKey() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
