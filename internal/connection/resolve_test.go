package connection

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// resolveWant is what Resolve should return and which Secrets it should read.
type resolveWant struct {
	config   rustfs.Config
	endpoint string
	err      string
	reads    []string
	// untracked: no usage is recorded when the ProviderConfig cannot be
	// read, so a reference to a missing one pins nothing.
	untracked bool
}

type resolveCase struct {
	reason string
	mg     *v1alpha1.Tier
	want   resolveWant
}

// resolveCases are the references Resolve follows, and those it cannot.
func resolveCases() map[string]resolveCase {
	cases := errorCases()
	maps.Copy(cases, map[string]resolveCase{
		"ProviderConfig": {
			reason: "A namespaced ProviderConfig is read in the resource's namespace, with its Secret, and values are trimmed.",
			mg:     tier("ProviderConfig", "local"),
			want: resolveWant{
				config:   rustfs.Config{Endpoint: "http://rustfs-a:9000", Region: "eu-1", AccessKey: "team-a-ak", SecretKey: sentinel},
				endpoint: "http://rustfs-a:9000",
				reads:    []string{"team-a/admin"},
			},
		},
		"ClusterProviderConfig": {
			reason: "A ClusterProviderConfig reads its Secret from the namespace it names, with custom keys.",
			mg:     tier("ClusterProviderConfig", "default"),
			want: resolveWant{
				config:   rustfs.Config{Endpoint: "HTTPS://RustFS.example.com:443/", AccessKey: "root", SecretKey: sentinel},
				endpoint: "https://rustfs.example.com",
				reads:    []string{"crossplane-system/admin"},
			},
		},
	})
	return cases
}

// errorCases are the references Resolve cannot follow.
func errorCases() map[string]resolveCase {
	return map[string]resolveCase{
		"MissingProviderConfig": {
			reason: "A missing ProviderConfig is named in the error.",
			mg:     tier("ProviderConfig", "nope"),
			want:   resolveWant{err: "cannot get ProviderConfig team-a/nope", untracked: true},
		},
		"MissingClusterProviderConfig": {
			reason: "A missing ClusterProviderConfig is named in the error.",
			mg:     tier("ClusterProviderConfig", "nope"),
			want:   resolveWant{err: "cannot get ClusterProviderConfig nope", untracked: true},
		},
		"MissingSecret": {
			reason: "A missing Secret is named in the error.",
			mg:     tier("ClusterProviderConfig", "missing-secret"),
			want:   resolveWant{err: "Secret crossplane-system/gone not found", reads: []string{"crossplane-system/gone"}},
		},
		"MissingKey": {
			reason: "A missing key is named in the error.",
			mg:     tier("ClusterProviderConfig", "empty-key"),
			want:   resolveWant{err: `key "secretkey" of Secret crossplane-system/blank is empty`, reads: []string{"crossplane-system/blank"}},
		},
		"SecretOnlyInAnotherNamespace": {
			reason: "A namespaced ProviderConfig's Secret is looked up in its own namespace only, never in the namespace where a Secret of that name exists.",
			mg:     tier("ProviderConfig", "elsewhere"),
			want:   resolveWant{err: "Secret team-a/only-in-b not found", reads: []string{"team-a/only-in-b"}},
		},
		"UnsupportedKind": {
			reason: "Only the two ProviderConfig kinds are supported.",
			mg:     tier("Other", "x"),
			want:   resolveWant{err: `providerConfigRef kind "Other" is not supported`, untracked: true},
		},
	}
}

func TestResolve(t *testing.T) {
	for name, tc := range resolveCases() {
		t.Run(name, func(t *testing.T) {
			kube := fake.NewClientBuilder().WithScheme(scheme(t)).WithRuntimeObjects(objects()...).Build()
			secrets := &recordingReader{Reader: kube}
			tracked := 0
			r := NewResolver(kube, secrets, resource.ModernTrackerFn(func(context.Context, resource.ModernManaged) error { tracked++; return nil }))

			got, err := r.Resolve(context.Background(), tc.mg)
			if want := map[bool]int{false: 1, true: 0}[tc.want.untracked]; tracked != want {
				t.Errorf("%s\nResolve(...): want usage tracked %d times, got %d", tc.reason, want, tracked)
			}
			if diff := cmp.Diff(tc.want.reads, secrets.got); diff != "" {
				t.Errorf("%s\nResolve(...): -want Secret reads, +got:\n%s", tc.reason, diff)
			}
			checkResolved(t, tc.reason, tc.want, got, err)
		})
	}
}

// checkResolved compares what Resolve returned with want; the secret key is
// compared but never printed.
func checkResolved(t *testing.T, reason string, want resolveWant, got *Connection, err error) {
	t.Helper()
	if want.err != "" {
		if err == nil || !strings.Contains(err.Error(), want.err) {
			t.Fatalf("%s\nResolve(...): want error containing %q, got %v", reason, want.err, err)
		}
		if strings.Contains(err.Error(), sentinel) {
			t.Errorf("%s\nResolve(...): error contains a secret value", reason)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s\nResolve(...): %v", reason, err)
	}
	if got.Config.SecretKey != want.config.SecretKey {
		t.Errorf("%s\nResolve(...): secret key was not read and trimmed", reason)
	}
	got.Config.SecretKey, want.config.SecretKey = "", ""
	if diff := cmp.Diff(want.config, got.Config); diff != "" {
		t.Errorf("%s\nResolve(...): -want config, +got:\n%s", reason, diff)
	}
	if got.Endpoint != want.endpoint {
		t.Errorf("%s\nResolve(...): want endpoint %q, got %q", reason, want.endpoint, got.Endpoint)
	}
}

func TestRevisionFollowsConfigAndSecret(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientBuilder().WithScheme(scheme(t)).WithRuntimeObjects(objects()...).Build()
	r := NewResolver(kube, kube, resource.ModernTrackerFn(func(context.Context, resource.ModernManaged) error { return nil }))
	revision := func() string {
		t.Helper()
		c, err := r.Resolve(ctx, tier("ProviderConfig", "local"))
		if err != nil {
			t.Fatal(err)
		}
		return c.Revision
	}
	first := revision()
	if again := revision(); again != first {
		t.Fatalf("Revision changed without a change: %q then %q", first, again)
	}
	s := &corev1.Secret{}
	if err := kube.Get(ctx, client.ObjectKey{Namespace: "team-a", Name: "admin"}, s); err != nil {
		t.Fatal(err)
	}
	s.Data["secretkey"] = []byte("rotated")
	if err := kube.Update(ctx, s); err != nil {
		t.Fatal(err)
	}
	if rotated := revision(); rotated == first {
		t.Errorf("Revision did not change when the ProviderConfig's Secret changed")
	}
}

func TestNormalizeEndpoint(t *testing.T) {
	cases := map[string]struct {
		in, want string
	}{
		"DefaultHTTPSPort":    {in: "HTTPS://RustFS.Example.com:443/", want: "https://rustfs.example.com"},
		"DefaultHTTPPort":     {in: "http://rustfs:80", want: "http://rustfs"},
		"CustomPort":          {in: "http://127.0.0.1:9000/", want: "http://127.0.0.1:9000"},
		"PathKept":            {in: "https://gw.example.com/rustfs/", want: "https://gw.example.com/rustfs"},
		"SurroundingSpaces":   {in: " http://rustfs:9000 ", want: "http://rustfs:9000"},
		"NotAURLIsLowercase":  {in: "RUSTFS", want: "rustfs"},
		"UserinfoDropped":     {in: "http://admin:pw-secret@rustfs:9000/", want: "http://rustfs:9000"},
		"QueryDropped":        {in: "http://rustfs:9000/?token=pw-secret#pw-secret", want: "http://rustfs:9000"},
		"BadEscapeInPassword": {in: "http://admin:pw-secret%zz@rustfs:9000", want: "http://rustfs:9000"},
		"BadPortPassword":     {in: "http://admin:pw-secret@rustfs:port", want: "http://rustfs:port"},
		"SlashInPassword":     {in: "http://admin:pw/secret@rustfs:9000", want: "http://rustfs:9000"},
		"AtInPassword":        {in: "http://admin:pw@secret@rustfs:bad", want: "http://rustfs:bad"},
		"NoScheme":            {in: "admin:pw-secret@rustfs:9000", want: "rustfs:9000"},
		"NoSchemeQuery":       {in: "rustfs:9000?key=pw-secret", want: "rustfs:9000"},
		"SpaceInPassword":     {in: "http://admin:pw secret@rustfs:9000", want: "http://rustfs:9000"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := NormalizeEndpoint(tc.in)
			if got != tc.want {
				t.Errorf("NormalizeEndpoint(%q): want %q, got %q", tc.in, tc.want, got)
			}
			if strings.Contains(got, "pw") || strings.Contains(got, "secret") {
				t.Errorf("NormalizeEndpoint(%q) = %q: contains a part of the password", tc.in, got)
			}
		})
	}
}
