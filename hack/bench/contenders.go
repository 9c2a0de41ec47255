package main

import (
	"fmt"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// peerMetricsAddr is where a controller-runtime manager serves its metrics
// when nothing configures it, as provider-minio's does.
const peerMetricsAddr = "127.0.0.1:8080"

// A contender is one provider of the side-by-side run, at its default
// flags: how it starts, what it needs and the Buckets it manages.
type contender struct {
	name    string
	binary  string
	args    func(metrics, pprof string) []string
	fixed   string // the metrics address the binary always uses, if it takes none
	objects func(w world) []client.Object
	bucket  func(i int) *unstructured.Unstructured
	gvr     schema.GroupVersionResource
}

// rustfsContender is provider-rustfs at its defaults: only the addresses
// and leader election (one replica) are set.
func (f flags) rustfsContender() contender {
	return contender{
		name: "provider-rustfs", binary: f.binary(),
		args: func(metrics, pprof string) []string {
			args := []string{"--no-leader-election", "--metrics-bind-address=" + metrics, "--health-probe-bind-address=0"}
			if pprof != "" {
				args = append(args, "--pprof-bind-address="+pprof)
			}
			return args
		},
		objects: setup,
		bucket: func(i int) *unstructured.Unstructured {
			u := object("rustfs.m.crossplane.io/v1alpha1", "Bucket", benchNS, bucketName(i))
			_ = unstructured.SetNestedMap(u.Object, map[string]any{"kind": "ClusterProviderConfig", "name": configName}, "spec", "providerConfigRef")
			return u
		},
		gvr: schema.GroupVersionResource{Group: "rustfs.m.crossplane.io", Version: "v1alpha1", Resource: "buckets"},
	}
}

// peerContender is vshn/provider-minio (or a binary that takes its
// command line and CRDs) at its defaults: `operator`, metrics on :8080.
func (f flags) peerContender() contender {
	return contender{
		name: filepath.Base(f.peer), binary: f.peer, fixed: peerMetricsAddr,
		args:    func(string, string) []string { return []string{"operator"} },
		objects: peerSetup,
		bucket: func(i int) *unstructured.Unstructured {
			u := object("minio.crossplane.io/v1", "Bucket", "", bucketName(i))
			_ = unstructured.SetNestedField(u.Object, bucketName(i), "spec", "forProvider", "bucketName")
			_ = unstructured.SetNestedField(u.Object, configName, "spec", "providerConfigRef", "name")
			return u
		},
		gvr: schema.GroupVersionResource{Group: "minio.crossplane.io", Version: "v1", Resource: "buckets"},
	}
}

func bucketName(i int) string { return fmt.Sprintf("side-%04d", i) }

func object(apiVersion, kind, ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// peerSetup returns the peer's credentials Secret and ProviderConfig.
func peerSetup(w world) []client.Object {
	pc := object("minio.crossplane.io/v1", "ProviderConfig", "", configName)
	pc.Object["spec"] = map[string]any{
		"minioURL": w.endpoint + "/",
		"credentials": map[string]any{"source": "InjectedIdentity",
			"apiSecretRef": map[string]any{"name": adminSecret, "namespace": systemNS}},
	}
	return []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: systemNS}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: systemNS, Name: adminSecret},
			StringData: map[string]string{"AWS_ACCESS_KEY_ID": w.accessKey, "AWS_SECRET_ACCESS_KEY": w.secretKey}},
		pc,
	}
}
