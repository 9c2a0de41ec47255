package packages

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// crossplaneNamespace is where Crossplane unpacks and runs packages.
const crossplaneNamespace = testenv.CrossplaneNamespace

// eventually bounds how long a wait of the install test goes on without
// progress (waitProgress); patience bounds every wait in all, however busy
// the processes stay.
const (
	eventually = 2 * time.Minute
	patience   = 10 * time.Minute
)

// A cluster is a kube-apiserver + etcd with only Crossplane's CRDs
// installed, as a cluster is after `helm install crossplane`: the
// provider's CRDs come from its package.
type cluster struct {
	t          *testing.T
	g          *gomega.WithT
	ctx        context.Context
	cfg        *rest.Config
	kube       client.Client
	kubeconfig string // an administrator's kubeconfig file
	dir        string
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	e := &envtest.Environment{
		CRDDirectoryPaths:     []string{coreCRDs(t)},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: os.Getenv("KUBEBUILDER_ASSETS"),
	}
	cfg, err := e.Start()
	t.Cleanup(func() { _ = e.Stop() })
	if err != nil {
		t.Fatalf("cannot start kube-apiserver and etcd: %v", err)
	}
	c := &cluster{t: t, g: gomega.NewWithT(t), ctx: context.Background(), cfg: cfg, dir: t.TempDir()}
	admin, err := e.AddUser(envtest.User{Name: "crossplane-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatalf("cannot add an administrator: %v", err)
	}
	kc, err := admin.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	c.kubeconfig = c.write("admin.kubeconfig", kc)
	c.kube = newClient(t, cfg)
	c.create(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: crossplaneNamespace}})
	c.create(&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: crossplaneNamespace, Name: "crossplane"}})
	return c
}

func newClient(t *testing.T, cfg *rest.Config) client.Client {
	t.Helper()
	s := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, rbacv1.AddToScheme,
		authenticationv1.AddToScheme, apiextensionsv1.AddToScheme, apis.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		t.Fatalf("cannot create a client: %v", err)
	}
	return c
}

// coreCRDs is the directory of Crossplane's CRDs in the core module, which
// hack/tools.sh built the core binary from.
func coreCRDs(t *testing.T) string {
	t.Helper()
	dir, err := testenv.CoreCRDs(context.Background(), testenv.Root())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// write writes a file into the cluster's directory and returns its path.
func (c *cluster) write(name string, b []byte) string {
	c.t.Helper()
	p := filepath.Join(c.dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// create creates objects, failing the test on error.
func (c *cluster) create(objs ...client.Object) {
	c.t.Helper()
	for _, o := range objs {
		if err := c.kube.Create(c.ctx, o); err != nil && !kerrors.IsAlreadyExists(err) {
			c.t.Fatalf("cannot create %T %s: %v", o, o.GetName(), err)
		}
	}
}

// get reads the object apiVersion/kind namespace/name.
func (c *cluster) get(g gomega.Gomega, apiVersion, kind, namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	g.Expect(c.kube.Get(c.ctx, client.ObjectKey{Namespace: namespace, Name: name}, u)).To(gomega.Succeed(), "%s %s", kind, name)
	return u
}

// list lists the objects apiVersion/kind, with opts.
func (c *cluster) list(g gomega.Gomega, apiVersion, kind string, opts ...client.ListOption) []unstructured.Unstructured {
	l := &unstructured.UnstructuredList{}
	l.SetAPIVersion(apiVersion)
	l.SetKind(kind + "List")
	g.Expect(c.kube.List(c.ctx, l, opts...)).To(gomega.Succeed(), "list %s", kind)
	return l.Items
}

// wait retries check until it passes. On a loaded machine the steps take
// longer (the RBAC manager, for example, renders a provider's ClusterRoles
// only once it has started, synced its caches and seen the revision list
// its CRDs), so a wait fails only when nothing has moved for eventually:
// no output from the processes the test started and no change to a package
// revision or ClusterRole; when a process it started has exited; or when
// it has gone on for patience in all.
func (c *cluster) wait(check func(g gomega.Gomega)) {
	c.t.Helper()
	start := time.Now()
	last, mark := start, c.progress()
	for {
		for _, p := range processes.all() {
			p.running(c.t) // a process that died makes no more progress
		}
		failure := ""
		g := gomega.NewGomega(func(msg string, _ ...int) { failure = msg })
		if g.Eventually(check).WithTimeout(10 * time.Second).WithPolling(200 * time.Millisecond).Should(gomega.Succeed()) {
			return
		}
		now := time.Now()
		if m := c.progress(); m != mark {
			last, mark = now, m
		}
		switch {
		case now.Sub(last) > eventually:
			c.t.Fatalf("no progress for %s (no output from the test's processes, no change to a package revision or ClusterRole), and still:\n%s",
				eventually, failure)
		case now.Sub(start) > patience:
			c.t.Fatalf("still failing after %s, though the processes kept working:\n%s", patience, failure)
		}
	}
}

// progress is a fingerprint of the install's progress: the output of the
// processes the test started, and the resource versions of the package
// revisions and ClusterRoles.
func (c *cluster) progress() string {
	var b strings.Builder
	for _, p := range processes.all() {
		fmt.Fprintf(&b, "%s=%d ", p.name, len(p.log.String()))
	}
	for _, kind := range []string{"ProviderRevision", "FunctionRevision", "ConfigurationRevision"} {
		l := &unstructured.UnstructuredList{}
		l.SetAPIVersion(pkgV1)
		l.SetKind(kind + "List")
		if err := c.kube.List(c.ctx, l); err == nil {
			for _, u := range l.Items {
				fmt.Fprintf(&b, "%s/%s=%s ", kind, u.GetName(), u.GetResourceVersion())
			}
		}
	}
	roles := &rbacv1.ClusterRoleList{}
	if err := c.kube.List(c.ctx, roles); err == nil {
		for _, r := range roles.Items {
			fmt.Fprintf(&b, "%s=%s ", r.Name, r.ResourceVersion)
		}
	}
	return b.String()
}

// serviceAccountKubeconfig writes a kubeconfig that authenticates as the
// ServiceAccount namespace/name with a token the API server issues, as a
// pod running under that ServiceAccount would.
func (c *cluster) serviceAccountKubeconfig(namespace, name string) string {
	c.t.Helper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	exp := int64(3600)
	tr := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &exp}}
	if err := c.kube.SubResource("token").Create(c.ctx, sa, tr); err != nil {
		c.t.Fatalf("cannot get a token for ServiceAccount %s/%s: %v", namespace, name, err)
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["envtest"] = &clientcmdapi.Cluster{Server: c.cfg.Host, CertificateAuthorityData: c.cfg.CAData}
	kc.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: tr.Status.Token}
	kc.Contexts["default"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: name}
	kc.CurrentContext = "default"
	b, err := clientcmd.Write(*kc)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.write(strings.ReplaceAll(namespace+"-"+name, "/", "-")+".kubeconfig", b)
}
