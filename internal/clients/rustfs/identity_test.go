package rustfs

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

const (
	tierOnlyAK = "tiers"
	tierOnlySK = "tiers-secret"
)

// tierOnly is a user allowed the tier actions but not admin:ServerInfo.
var tierOnly = rustfstest.WithUser(tierOnlyAK, tierOnlySK, "admin:SetTier", "admin:ListTier")

// clientFor returns a client for endpoint with the given keys and options.
func clientFor(t *testing.T, endpoint, ak, sk string, opts ...Option) *Client {
	t.Helper()
	c, err := New(Config{Endpoint: endpoint, AccessKey: ak, SecretKey: sk, Timeout: 5 * time.Second}, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func rootClient(t *testing.T, endpoint string, opts ...Option) *Client {
	t.Helper()
	return clientFor(t, endpoint, rustfstest.DefaultAccessKey, rustfstest.DefaultSecretKey, opts...)
}

// serve starts an emulator closed at cleanup.
func serve(t *testing.T, opts ...rustfstest.Option) *rustfstest.Server {
	t.Helper()
	s := rustfstest.NewServer(opts...)
	t.Cleanup(s.Close)
	return s
}

// A fakeClock is a settable clock safe for concurrent use.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func deployment(s *rustfstest.Server) Identity { return Identity("deployment:" + s.DeploymentID()) }
func endpointOf(s *rustfstest.Server) Identity { return Identity("endpoint:http://" + s.Addr()) }

// An identityCase is one answer of the info route and the outcome it must give.
type identityCase struct {
	reason  string
	opts    []rustfstest.Option
	fault   *rustfstest.Fault
	ak, sk  string                            // default: root
	want    func(*rustfstest.Server) Identity // the identity, when no error is wanted
	wantErr func(error) bool                  // a property of the wanted error
}

// identityCases are the answers of docs/rustfs-wire.md §15.2-§15.5.
func identityCases() map[string]identityCase {
	return map[string]identityCase{
		"DeploymentID": {reason: "root may read info", want: deployment},
		"SetDeploymentID": {reason: "the ID is taken as the server sends it",
			opts: []rustfstest.Option{rustfstest.WithDeploymentID("one-rustfs")},
			want: func(*rustfstest.Server) Identity { return "deployment:one-rustfs" }},
		"NullIDFallsBack": {reason: "RustFS before beta.5 answers null",
			opts: []rustfstest.Option{rustfstest.WithDeploymentID("")}, want: endpointOf},
		"AccessDeniedFallsBack": {reason: "a user without admin:ServerInfo is refused",
			opts: []rustfstest.Option{tierOnly}, ak: tierOnlyAK, sk: tierOnlySK, want: endpointOf},
		"NotImplementedFallsBack": {reason: "a server without the route answers 501",
			fault: &rustfstest.Fault{Status: 501, Code: "NotImplemented"}, want: endpointOf},
		"NotFoundFallsBack": {reason: "a server where the path is no admin route answers 404",
			fault: &rustfstest.Fault{Status: 404, Code: "NoSuchBucket"}, want: endpointOf},
		"UnavailableIsError": {reason: "503 before the server context is ready is transient",
			fault:   &rustfstest.Fault{Status: 503, Code: "ServiceUnavailable", Message: "server context is not ready"},
			wantErr: IsTransient},
		"IAMNotReadyIsError": {reason: "500 iam not init is transient",
			fault: &rustfstest.Fault{Status: 500, Code: "InternalError", Message: "iam not init"}, wantErr: IsTransient},
		"ResetIsError": {reason: "a reset connection is transient",
			fault: &rustfstest.Fault{Reset: true}, wantErr: IsTransient},
		"UnknownKeyIsError": {reason: "a credential the server does not know proves nothing",
			ak: "nobody", sk: "nothing", wantErr: IsAccessDenied},
		"WrongSecretIsError": {reason: "a wrong signature proves nothing",
			ak: rustfstest.DefaultAccessKey, sk: "wrong", wantErr: IsAccessDenied},
		"MalformedIDIsError": {reason: "an ID outside the safe alphabet is neither trusted nor echoed",
			opts:    []rustfstest.Option{rustfstest.WithDeploymentID("id with <markup>")},
			wantErr: func(err error) bool { return !strings.Contains(err.Error(), "markup") }},
	}
}

// TestIdentityOutcomes: each answer of the info route gives the deployment
// ID, the endpoint fallback, or an error the caller retries (never a
// refusal); each costs exactly one info request.
func TestIdentityOutcomes(t *testing.T) {
	for name, tc := range identityCases() {
		for mode, m := range modes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				s := serve(t, append([]rustfstest.Option{rustfstest.WithMode(m)}, tc.opts...)...)
				if tc.fault != nil {
					s.InjectFault(rustfstest.RouteServerInfo, *tc.fault)
				}
				ak, sk := tc.ak, tc.sk
				if ak == "" {
					ak, sk = rustfstest.DefaultAccessKey, rustfstest.DefaultSecretKey
				}
				got, err := clientFor(t, s.URL(), ak, sk).Identity(context.Background())
				switch {
				case tc.wantErr != nil && (err == nil || IsInfoRefused(err) || !tc.wantErr(err)):
					t.Errorf("%s: want a retryable error, not a refusal; got %q, %v", tc.reason, got, err)
				case tc.wantErr == nil && (err != nil || got != tc.want(s)):
					t.Errorf("%s: want %q, got %q, %v", tc.reason, tc.want(s), got, err)
				}
				if n := s.Count(rustfstest.RouteServerInfo); n != 1 {
					t.Errorf("%s: info requests = %d, want 1", tc.reason, n)
				}
			})
		}
	}
}

// TestIdentityJoinsSpellingsOfOneDeployment: 127.0.0.1 and localhost URLs of
// one emulator, or two emulators with one deployment ID, are one RustFS;
// refused, the two spellings stay two endpoints.
func TestIdentityJoinsSpellingsOfOneDeployment(t *testing.T) {
	ctx := context.Background()
	s := serve(t, tierOnly)
	port := s.Addr()[strings.LastIndex(s.Addr(), ":")+1:]
	spellings := []string{"http://127.0.0.1:" + port, "http://LOCALHOST:" + port + "/"}
	var ids, refused []Identity
	for _, ep := range spellings {
		id, err := rootClient(t, ep).Identity(ctx)
		if err != nil {
			t.Fatalf("Identity(%s): %v", ep, err)
		}
		ids = append(ids, id)
		fb, err := clientFor(t, ep, tierOnlyAK, tierOnlySK).Identity(ctx)
		if err != nil {
			t.Fatalf("Identity(%s) as %s: %v", ep, tierOnlyAK, err)
		}
		refused = append(refused, fb)
	}
	if ids[0] != ids[1] || ids[0] != deployment(s) || !ids[0].IsDeployment() {
		t.Errorf("two spellings of one emulator: want %q twice, got %q", deployment(s), ids)
	}
	want := []Identity{Identity("endpoint:http://127.0.0.1:" + port), Identity("endpoint:http://localhost:" + port)}
	if refused[0] != want[0] || refused[1] != want[1] || refused[0].IsDeployment() {
		t.Errorf("refused: want %q, got %q", want, refused)
	}

	a, b := serve(t, rustfstest.WithDeploymentID("same")), serve(t, rustfstest.WithDeploymentID("same"))
	other := serve(t)
	idA, errA := rootClient(t, a.URL()).Identity(ctx)
	idB, errB := rootClient(t, b.URL()).Identity(ctx)
	idO, errO := rootClient(t, other.URL()).Identity(ctx)
	if errA != nil || errB != nil || errO != nil || idA != idB || idA == idO {
		t.Errorf("emulators sharing an ID must be one RustFS and others not: %q %q %q (%v %v %v)", idA, idB, idO, errA, errB, errO)
	}
}

func TestEndpointIdentity(t *testing.T) {
	srv := serve(t, tierOnly)
	refused, err := clientFor(t, srv.URL(), tierOnlyAK, tierOnlySK).Identity(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := EndpointIdentity(strings.Replace(srv.URL(), "http://", "HTTP://", 1) + "/")
	if err != nil || got != refused {
		t.Errorf("EndpointIdentity(...): want %q, the identity of a refused configuration at that endpoint, got %q (%v)", refused, got, err)
	}
	if _, err := EndpointIdentity("ftp://rustfs"); err == nil {
		t.Error("EndpointIdentity(ftp://rustfs): want an error")
	}
}
