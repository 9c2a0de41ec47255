package rustfstest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// send sends a signed request with client and returns the answer's status
// and body, or the transport or body error.
func send(t *testing.T, client *http.Client, base string, r req) (int, []byte, error) {
	t.Helper()
	hr, err := http.NewRequest(r.method, base+r.path, bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	signReq(t, hr, r)
	resp, err := client.Do(hr)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

func TestLostAnswerAppliesTheWrite(t *testing.T) {
	cases := map[string]struct {
		loss       Loss
		wantStatus int  // 0: a transport error
		wantErr    bool // the answer or its body failed
		wantBody   string
	}{
		"Reset":     {loss: LossReset, wantErr: true},
		"Close":     {loss: LossClose, wantErr: true},
		"Hang":      {loss: LossHang, wantErr: true},
		"Garbage":   {loss: LossGarbage, wantStatus: 200, wantBody: garbage},
		"Truncated": {loss: LossTruncated, wantStatus: 200, wantErr: true},
		"Status":    {loss: LossStatus, wantStatus: 500, wantBody: "<Code>InternalError</Code>"},
	}
	for _, mode := range []Mode{ModeRC, ModeGA} {
		for name, tc := range cases {
			t.Run(mode.String()+"/"+name, func(t *testing.T) {
				p := newPair(t, mode)
				p.local.InjectFault(RouteAddTier, Fault{Lost: tc.loss, Latency: 100 * time.Millisecond, Times: 1})
				add := req{method: http.MethodPut, path: "/rustfs/admin/v3/tier", body: p.tierJSON("COLD")}
				status, body, err := send(t, http.DefaultClient, p.local.URL(), add)
				if (err != nil) != tc.wantErr || status != tc.wantStatus || !strings.Contains(string(body), tc.wantBody) {
					t.Errorf("answer: want status %d, error %t, body with %q; got %d, %v, %q", tc.wantStatus, tc.wantErr, tc.wantBody, status, err, body)
				}
				if _, ok := p.local.Tier("COLD"); !ok {
					t.Error("the handler did not run: tier COLD is not registered")
				}
				if n := p.local.Count(RouteAddTier); n != 1 {
					t.Errorf("adds counted: want 1, got %d", n)
				}
				want(t, p.add(t, p.tierJSON("COLD"), ""), 500, "TierNameAlreadyExist", "")
			})
		}
	}
}

func TestRedirectFault(t *testing.T) {
	p := newPair(t, ModeGA)
	sink := NewSink()
	t.Cleanup(sink.Close)
	p.local.InjectFault(RouteAddTier, Fault{Redirect: sink.URL(), Times: 2})
	add := req{method: http.MethodPut, path: "/rustfs/admin/v3/tier", body: p.tierJSON("COLD")}

	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	hr, _ := http.NewRequest(add.method, p.local.URL()+add.path, bytes.NewReader(add.body))
	signReq(t, hr, add)
	resp, err := noFollow.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusTemporaryRedirect || loc != sink.URL()+add.path {
		t.Errorf("want 307 to %s, got %d to %q", sink.URL()+add.path, resp.StatusCode, loc)
	}
	if sink.Requests() != 0 {
		t.Errorf("the sink received %d requests from a client that does not follow redirects", sink.Requests())
	}
	// A client that follows redirects resends the body, with the tier's
	// secret key, to the sink: what the provider must never do.
	if status, _, err := send(t, http.DefaultClient, p.local.URL(), add); err != nil || status != http.StatusOK {
		t.Fatalf("following client: %d, %v", status, err)
	}
	if !sink.Received(remoteSK) {
		t.Error("the sink did not receive the resent body")
	}
	if _, ok := p.local.Tier("COLD"); ok {
		t.Error("a redirected add was applied")
	}
}

func TestEchoFault(t *testing.T) {
	p := newPair(t, ModeRC)
	p.local.InjectFault(RouteAddTier, Fault{Echo: true, Times: 1})
	got := p.add(t, p.tierJSON("COLD"), "")
	want(t, got, 400, "InvalidRequest", "")
	if !strings.Contains(got.Message, `"secretKey":"`+remoteSK+`"`) {
		t.Errorf("echo: want the request body in the message, got %q", got.Message)
	}
	if _, ok := p.local.Tier("COLD"); ok {
		t.Error("an echoed add was applied")
	}
	want(t, p.add(t, p.tierJSON("COLD"), ""), 200, "", "")
}

// TestHangWaitsForTheClient checks that LossHang answers nothing until the
// client gives up.
func TestHangWaitsForTheClient(t *testing.T) {
	p := newPair(t, ModeGA)
	p.local.InjectFault(RouteListTiers, Fault{Lost: LossHang})
	c := &http.Client{Timeout: 200 * time.Millisecond}
	_, _, err := send(t, c, p.local.URL(), req{method: http.MethodGet, path: "/rustfs/admin/v3/tier"})
	var te interface{ Timeout() bool }
	if !errors.As(err, &te) || !te.Timeout() {
		t.Errorf("want a client timeout, got %v", err)
	}
}

func TestRetryAfterFault(t *testing.T) {
	p := newPair(t, ModeGA)
	p.local.InjectFault(RouteListTiers, Fault{Status: 429, Code: "SlowDown", RetryAfter: "7", Times: 1})
	hr, _ := http.NewRequest(http.MethodGet, p.local.URL()+"/rustfs/admin/v3/tier", nil)
	signReq(t, hr, req{method: http.MethodGet})
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" {
		t.Errorf("want 429 with Retry-After 7, got %d with %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
