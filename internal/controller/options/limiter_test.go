package options

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	changelogs "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

const (
	testController = "managed/bucket.rustfs.m.crossplane.io"
	testPoll       = 2 * time.Second
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// A step is one request to the limited reconciler at a moment of a fake
// clock: at is the time since the start, and answer is how the inner
// reconciler answers its pass (a retry is crossplane-runtime's answer
// after an error it reports in a condition). A step named pc… goes to a background reconciler
// (Limiter.Background), like the ProviderConfig usage controllers.
type step struct {
	at     time.Duration
	name   string
	answer answer
}

// An answer is how the inner reconciler answers a step's pass.
type answer int

const (
	poll   answer = iota // a poll (RequeueAfter)
	create               // a create, logged, then a requeue at once
	retry                // a requeue at once without a write
)

// An outcome is what a step got: passed to the inner reconciler, or sent
// back for after.
type outcome struct {
	Name   string
	Passed bool
	After  time.Duration
}

// play runs steps against a Limiter of rps with a burst already spent at
// the start, and returns their outcomes.
func play(t *testing.T, rps int, steps []step) []outcome {
	t.Helper()
	start := time.Unix(1_000_000, 0)
	now := start
	l := NewLimiter(rps)
	l.now = func() time.Time { return now }
	l.limit.AllowN(now, rps*10)
	var got []outcome
	for _, s := range steps {
		now = start.Add(s.at)
		res := reconcile.Result{RequeueAfter: testPoll}
		if s.answer != poll {
			//lint:ignore SA1019 crossplane-runtime's managed reconciler answers a create with Requeue.
			res = reconcile.Result{Requeue: true}
		}
		passed := false
		inner := reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			passed = true
			if s.answer == create {
				_ = Writes{}.Log(ctx, nil, changelogs.OperationType_OPERATION_TYPE_CREATE, nil, nil)
			}
			return res, nil
		})
		wrap := l.Reconciler
		if strings.HasPrefix(s.name, "pc") {
			wrap = l.Background
		}
		r, err := wrap(testController, inner).Reconcile(context.Background(), request(s.name))
		if err != nil {
			t.Fatal(err)
		}
		o := outcome{Name: s.name, Passed: passed}
		if !passed {
			o.After = r.RequeueAfter
		}
		got = append(got, o)
	}
	return got
}

func request(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "a", Name: name}}
}

// A limiterCase is a sequence of requests and what each should get.
type limiterCase struct {
	reason string
	rps    int
	steps  []step
	want   []outcome
}

// limiterCases are TestLimiter's cases.
func limiterCases() map[string]limiterCase {
	cases := map[string]limiterCase{
		"EventsTakeTokensInTurn": {
			reason: "With the burst spent, each event reserves the next token, waits for it and passes when it returns, without a second token.",
			rps:    1,
			steps:  []step{{0, "a", create}, {0, "b", create}, {sec(1), "a", create}, {sec(2), "b", create}, {sec(2), "c", create}},
			want: []outcome{{Name: "a", After: sec(1)}, {Name: "b", After: sec(2)},
				{Name: "a", Passed: true}, {Name: "b", Passed: true}, {Name: "c", After: sec(1)}},
		},
		"PollWaitsBehindEvents": {
			reason: "A poll due while events hold reservations goes back without a token; the events pass first, then the poll.",
			rps:    1,
			steps: []step{
				{0, "old", create}, {sec(1), "old", poll}, // old is Ready: its poll is due at 3 s
				{sec(3), "new0", create}, {sec(3), "new1", create}, {sec(3), "new2", create}, // creates arrive with the poll
				{sec(3), "old", poll}, // the poll: new2 holds a reservation
				{sec(4), "new2", create},
				{sec(4), "old", poll}, // no token free yet
				{sec(5), "old", poll},
			},
			want: []outcome{
				{Name: "old", After: sec(1)}, {Name: "old", Passed: true},
				{Name: "new0", Passed: true}, {Name: "new1", Passed: true}, {Name: "new2", After: sec(1)},
				{Name: "old", After: sec(1)}, {Name: "new2", Passed: true},
				{Name: "old", After: sec(1)}, {Name: "old", Passed: true},
			},
		},
		"ChangeBeforePollIsAnEvent": {
			reason: "A request that arrives well before its poll is due follows a change and reserves a token like any event.",
			rps:    1,
			steps:  []step{{0, "a", create}, {sec(1), "a", poll}, {sec(1.5), "a", poll}, {sec(2), "a", poll}},
			want:   []outcome{{Name: "a", After: sec(1)}, {Name: "a", Passed: true}, {Name: "a", After: sec(0.5)}, {Name: "a", Passed: true}},
		},
	}
	for _, more := range []map[string]limiterCase{pollCases(), followUpCases()} {
		for name, c := range more {
			cases[name] = c
		}
	}
	return cases
}

// followUpCases are TestLimiter's cases of the requests after a pass that
// wrote and asked to be requeued at once.
func followUpCases() map[string]limiterCase {
	return map[string]limiterCase{
		"FollowUpTakesNoToken": {
			reason: "The observe after a create passes without a token: the creates waiting for theirs keep their turns.",
			rps:    1,
			steps: []step{
				{at: 0, name: "c1", answer: create}, {at: 0, name: "c2", answer: create}, {at: 0, name: "c3", answer: create},
				{at: sec(1), name: "c1", answer: create},
				{at: sec(2), name: "c1", answer: poll}, // its follow-up, followUpAfter later
				{at: sec(2), name: "c2", answer: create}, {at: sec(3), name: "c3", answer: create},
			},
			want: []outcome{
				{Name: "c1", After: sec(1)}, {Name: "c2", After: sec(2)}, {Name: "c3", After: sec(3)},
				{Name: "c1", Passed: true}, {Name: "c1", Passed: true}, {Name: "c2", Passed: true}, {Name: "c3", Passed: true},
			},
		},
		"RetryIsNoFollowUp": {
			reason: "A pass that asks to be requeued at once without a write (an error it reported) is followed by an event that waits for a token.",
			rps:    1,
			steps: []step{
				{at: 0, name: "a", answer: retry}, {at: sec(1), name: "a", answer: retry},
				{at: sec(1), name: "a", answer: poll},
			},
			want: []outcome{{Name: "a", After: sec(1)}, {Name: "a", Passed: true}, {Name: "a", After: sec(1)}},
		},
		"OneFollowUpPerWrite": {
			reason: "Only the first request after a write is free: a follow-up that asks again waits for a token.",
			rps:    1,
			steps: []step{
				{at: 0, name: "a", answer: create}, {at: sec(1), name: "a", answer: create},
				{at: sec(2), name: "a", answer: retry}, // the follow-up passes and asks again
				{at: sec(2), name: "b", answer: poll},  // an event takes the token of second 2
				{at: sec(2), name: "a", answer: poll},
			},
			want: []outcome{{Name: "a", After: sec(1)}, {Name: "a", Passed: true}, {Name: "a", Passed: true}, {Name: "b", Passed: true}, {Name: "a", After: sec(1)}},
		},
	}
}

// pollCases are TestLimiter's cases of deferred polls and background
// requests.
func pollCases() map[string]limiterCase {
	return map[string]limiterCase{
		"BackgroundWaitsBehindEvents": {
			reason: "A background request (a ProviderConfig recount after each new usage) never reserves a token: it passes only when one is free and no event waits.",
			rps:    1,
			steps:  []step{{0, "new0", create}, {0, "pc", create}, {0, "new1", create}, {sec(1), "new0", create}, {sec(1.5), "pc", create}, {sec(2), "new1", create}, {sec(3), "pc", create}},
			want: []outcome{{Name: "new0", After: sec(1)}, {Name: "pc", After: sec(1)}, {Name: "new1", After: sec(2)},
				{Name: "new0", Passed: true}, {Name: "pc", After: sec(1)}, {Name: "new1", Passed: true}, {Name: "pc", Passed: true}},
		},
		"DeferredPollsSpreadOut": {
			reason: "Polls sent back return about when the polls waiting before them have had a token at the full rate.",
			rps:    2,
			steps: []step{
				{0, "a", poll}, {0, "b", poll}, {sec(1), "a", poll}, {sec(1), "b", poll},
				{sec(3), "x1", create}, {sec(3), "x2", create}, {sec(3), "x3", create}, {sec(3), "x4", create}, {sec(3), "x5", create},
				{sec(3), "a", poll}, {sec(3), "b", poll},
			},
			want: []outcome{
				{Name: "a", After: sec(0.5)}, {Name: "b", After: sec(1)}, {Name: "a", Passed: true}, {Name: "b", Passed: true},
				{Name: "x1", Passed: true}, {Name: "x2", Passed: true}, {Name: "x3", Passed: true}, {Name: "x4", Passed: true},
				{Name: "x5", After: sec(0.5)}, {Name: "a", After: sec(0.5)}, {Name: "b", After: sec(1)},
			},
		},
	}
}

func TestLimiter(t *testing.T) {
	cases := limiterCases()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := play(t, tc.rps, tc.steps)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// Every pass to the inner reconciler counts in
// rustfs_managed_reconciles_total, and no deferral does.
func TestLimiterCountsPasses(t *testing.T) {
	before := count(t, testController)
	got := play(t, 1, []step{{0, "a", create}, {0, "b", create}, {time.Second, "a", create}})
	passes := 0
	for _, o := range got {
		if o.Passed {
			passes++
		}
	}
	if n := count(t, testController) - before; n != float64(passes) || passes != 1 {
		t.Errorf("rustfs_managed_reconciles_total{controller=%q}: want %d more (1 pass of 3 requests), got %v", testController, passes, n)
	}
}

// count reads the counter of controller name.
func count(t *testing.T, name string) float64 {
	t.Helper()
	m := &dto.Metric{}
	if err := managedReconciles.WithLabelValues(name, causeEvent).Write(m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// The limiter forgets polls whose resources never came back.
func TestLimiterSweepsOverduePolls(t *testing.T) {
	l := NewLimiter(10)
	now := time.Unix(1_000_000, 0)
	l.now = func() time.Time { return now }
	l.limit.AllowN(now, 100) // spend the burst, so that the waiting ones reserve
	for i := range 3 {
		l.done(fmt.Sprint(i), false, reconcile.Result{RequeueAfter: testPoll}, nil)
		l.done("created"+fmt.Sprint(i), true, reconcile.Result{RequeueAfter: followUpAfter}, nil)
		l.admit("waiting"+fmt.Sprint(i), false)
	}
	now = now.Add(testPoll + 2*sweepEvery)
	l.done("fresh", false, reconcile.Result{RequeueAfter: testPoll}, nil)
	if diff := cmp.Diff([]string{"fresh"}, keys(l.due)); diff != "" {
		t.Errorf("polls remembered after a sweep: -want, +got:\n%s", diff)
	}
	if len(l.followUps) != 0 || len(l.granted) != 0 {
		t.Errorf("after a sweep: want no follow-ups or grants, got %d follow-ups and %d grants", len(l.followUps), len(l.granted))
	}
}

func keys(m map[string]time.Time) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
