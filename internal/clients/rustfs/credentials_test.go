package rustfs

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestDeriveAccessKey(t *testing.T) {
	const form = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	a := DeriveAccessKey("team-a", "app", "2f9c0e4e-1b2a-4c1e-9d0f-0a1b2c3d4e5f")
	cases := map[string]struct {
		reason string
		other  string
		same   bool
	}{
		"SameIdentity":   {reason: "the same parts give the same key", other: DeriveAccessKey("team-a", "app", "2f9c0e4e-1b2a-4c1e-9d0f-0a1b2c3d4e5f"), same: true},
		"OtherUID":       {reason: "a recreated resource gets a new key", other: DeriveAccessKey("team-a", "app", "00000000-0000-4000-8000-000000000000")},
		"OtherNamespace": {reason: "another namespace gets another key", other: DeriveAccessKey("team-b", "app", "2f9c0e4e-1b2a-4c1e-9d0f-0a1b2c3d4e5f")},
		"OtherSplit":     {reason: "the same text split differently is another identity", other: DeriveAccessKey("team-a/app", "2f9c0e4e-1b2a-4c1e-9d0f-0a1b2c3d4e5f")},
		"Joined":         {reason: "parts are length-delimited, not concatenated", other: DeriveAccessKey("team-aapp", "2f9c0e4e-1b2a-4c1e-9d0f-0a1b2c3d4e5f")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if (tc.other == a) != tc.same {
				t.Errorf("%s: %q and %q", tc.reason, a, tc.other)
			}
			if len(tc.other) != AccessKeyLength || !strings.HasPrefix(tc.other, "XP") || strings.Trim(tc.other, form) != "" {
				t.Errorf("%s: key %q is not XP and 18 characters of A-Z 2-7", tc.reason, tc.other)
			}
			if err := validateAccessKey(tc.other); err != nil {
				t.Errorf("%s: %v", tc.reason, err)
			}
		})
	}
}

func TestNewSecretKey(t *testing.T) {
	const form = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	seen := map[string]bool{}
	for range 100 {
		k, err := NewSecretKey()
		if err != nil {
			t.Fatal(err)
		}
		if len(k) != SecretKeyLength || strings.Trim(k, form) != "" || validateSecretKey(k) != nil {
			t.Fatalf("secret key of %d bytes is not 40 characters of base64url", len(k))
		}
		if seen[k] {
			t.Fatal("NewSecretKey repeated a key")
		}
		seen[k] = true
	}
}

func TestNewSecretKeyRandomnessFailure(t *testing.T) {
	for name, r := range map[string]io.Reader{
		"Error": iotest.ErrReader(errors.New("no entropy")),
		"Short": strings.NewReader("too short"),
	} {
		t.Run(name, func(t *testing.T) {
			if k, err := newSecretKey(r); err == nil || k != "" {
				t.Errorf("want an error and no key, got %d bytes, %v", len(k), err)
			}
		})
	}
}
