package rustfs

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// AWS's published SigV4 test suite vectors (credentials AKIDEXAMPLE /
// wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 20150830T123600Z, us-east-1,
// service "service"): get-vanilla and get-vanilla-query-order-key-case.
func TestSignerMatchesPublishedVectors(t *testing.T) {
	const emptySHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	cases := map[string]struct {
		url  string
		want string
	}{
		"GetVanilla": {url: "https://example.amazonaws.com/",
			want: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
		"GetVanillaQueryOrderKeyCase": {url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
			want: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, tc.url, nil)
			creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}
			at := time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC)
			if err := newSigner().SignHTTP(context.Background(), creds, req, emptySHA, "service", "us-east-1", at); err != nil {
				t.Fatal(err)
			}
			want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, " +
				"SignedHeaders=host;x-amz-date, Signature=" + tc.want
			if got := req.Header.Get("Authorization"); got != want {
				t.Errorf("Authorization:\nwant %s\ngot  %s", want, got)
			}
		})
	}
}

// signRequest signs the payload: x-amz-content-sha256 is the body's hex
// SHA-256 and is itself a signed header; the scope names service s3.
func TestSignRequestSignsPayloadHash(t *testing.T) {
	req, _ := http.NewRequest(http.MethodPut, "http://127.0.0.1:9000/rustfs/admin/v3/tier", strings.NewReader("{}"))
	at := time.Date(2026, 9, 16, 10, 0, 0, 0, time.UTC)
	if err := signRequest(context.Background(), newSigner(), req, []byte("{}"), "AK", "SK", "us-east-1", at); err != nil {
		t.Fatal(err)
	}
	const sha = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a" // sha256("{}")
	if got := req.Header.Get("X-Amz-Content-Sha256"); got != sha {
		t.Errorf("x-amz-content-sha256: want %s, got %s", sha, got)
	}
	auth := req.Header.Get("Authorization")
	for _, want := range []string{"Credential=AK/20260916/us-east-1/s3/aws4_request", "x-amz-content-sha256", "x-amz-date"} {
		if !strings.Contains(auth, want) {
			t.Errorf("Authorization %q lacks %q", auth, want)
		}
	}
}
