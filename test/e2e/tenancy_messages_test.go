package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Namespace B's duplicate Tiers, Bucket and BucketLifecycle learn nothing
// about namespace A from their status or events: not A's namespace, not
// the names of A's resources, and not the live settings of A's tier, also
// when B reaches the same RustFS under another spelling (localhost).
func TestTenancyMessagesDoNotRevealAnotherNamespace(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	tn.remote.CreateBucket("team-a-vault", false)
	tn.providerConfig(tn.b, "rustfs", tn.localhostURL(), tenantAdminAK, tenantAdminSK)
	mine := []managedObject{
		tn.tier(tn.a, "team-a-archive", "ARCHIVE", withTierBucket("team-a-vault"), withPrefix("team-a-private/")),
		tn.bucket(tn.a, "team-a-books", withExternalName("books")),
		tn.lifecycle(tn.a, "team-a-retention", "", []v1alpha1.LifecycleRule{rule("keep-a-year", expireAfter(365))},
			withBucketRef("team-a-books")),
	}
	tn.create(objects(mine)...)
	tn.waitReady(mine...)

	// B's Tiers declare settings of their own, so that a Tier that takes
	// A's live tier for its own reports A's settings as drift.
	theirs := func(name string, mods ...tierModifier) managedObject {
		base := []tierModifier{withTierEndpoint("http://b-remote.example:9000"), withTierBucket("b-vault"), withPrefix("b/")}
		return tn.tier(tn.b, name, "ARCHIVE", append(base, mods...)...)
	}
	hostile := []managedObject{
		theirs("b-archive"),
		theirs("b-archive-localhost", withTierLocalProviderConfig("rustfs")),
		tn.bucket(tn.b, "b-books", withExternalName("books")),
		tn.lifecycle(tn.b, "b-retention", "books", []v1alpha1.LifecycleRule{rule("expire-tomorrow", expireAfter(1))}),
	}
	tn.createAfter(mine, hostile...)
	tn.waitReconciled(hostile...)
	found := map[string]bool{}
	tn.awaitPolls(rustfstest.RouteListTiers, polls, func() {
		for _, l := range tn.leaks(tn.secretsOfA(), hostile...) {
			found[l] = true
		}
	})

	for _, l := range slices.Sorted(maps.Keys(found)) {
		t.Errorf("namespace B learns about namespace A: %s", l)
	}
	tn.expectDuplicateTier(hostile[0], hostile[1])
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, hostile[2])
	tn.expectRefused(v1alpha1.ReasonBucketManagedElsewhere, hostile[3])
}

// A secretOfA is something namespace B must never learn about namespace A.
type secretOfA struct {
	what string
	re   *regexp.Regexp
}

// secretsOfA are the namespace of TestTenancyMessagesDoNotRevealAnother-
// Namespace's namespace A, its resources' names, and its tier's settings.
// The remote's URL must not be followed by a digit, so that another port
// that merely starts the same does not count.
func (tn *tenancy) secretsOfA() []secretOfA {
	lit := func(what, s string) secretOfA {
		return secretOfA{what: what, re: regexp.MustCompile(regexp.QuoteMeta(s))}
	}
	return []secretOfA{
		lit("namespace A's name", tn.a),
		lit("the name of namespace A's Tier", "team-a-archive"),
		lit("the name of namespace A's Bucket", "team-a-books"),
		lit("the name of namespace A's BucketLifecycle", "team-a-retention"),
		lit("the bucket of namespace A's tier", "team-a-vault"),
		lit("the prefix of namespace A's tier", "team-a-private"),
		{what: "the endpoint of namespace A's tier", re: regexp.MustCompile(regexp.QuoteMeta(tn.remote.TierURL()) + `(\D|$)`)},
	}
}

// leaks returns where one of secrets appears in what namespace B can read
// of objs (their condition messages and status.atProvider) and in the
// events of namespace B.
func (tn *tenancy) leaks(secrets []secretOfA, objs ...managedObject) []string {
	var out []string
	for _, o := range objs {
		if err := env.Client.Get(tn.ctx, client.ObjectKeyFromObject(o), o); err != nil {
			tn.t.Fatalf("cannot get %T %s: %v", o, o.GetName(), err)
		}
		var s struct {
			Status struct {
				Conditions []xpv2.Condition `json:"conditions"`
				AtProvider json.RawMessage  `json:"atProvider"`
			} `json:"status"`
		}
		b, _ := json.Marshal(o)
		_ = json.Unmarshal(b, &s)
		where := fmt.Sprintf("%T %s", o, o.GetName())
		for _, c := range s.Status.Conditions {
			out = append(out, appearances(secrets, fmt.Sprintf("%s, condition %s (reason %s)", where, c.Type, c.Reason), c.Message)...)
		}
		out = append(out, appearances(secrets, where+", status.atProvider", string(s.Status.AtProvider))...)
	}
	events := &corev1.EventList{}
	if err := env.Client.List(tn.ctx, events, client.InNamespace(tn.b)); err != nil {
		tn.t.Fatalf("cannot list the events of namespace B: %v", err)
	}
	for _, e := range events.Items {
		where := fmt.Sprintf("event %s of %s %s", e.Reason, e.InvolvedObject.Kind, e.InvolvedObject.Name)
		out = append(out, appearances(secrets, where, e.Message)...)
	}
	return out
}

// appearances describes each secret that text holds, found at where.
func appearances(secrets []secretOfA, where, text string) []string {
	var out []string
	for _, s := range secrets {
		if s.re.MatchString(text) {
			out = append(out, fmt.Sprintf("%s shows %s: %s", where, s.what, redact(text)))
		}
	}
	return out
}

func objects(ms []managedObject) []client.Object {
	out := make([]client.Object, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}
