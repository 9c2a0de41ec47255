//go:build tools

// Package tools pins kube-apiserver for the provider's integration tests.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
