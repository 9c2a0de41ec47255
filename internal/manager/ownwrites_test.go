package manager

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// lagging is a client whose reads come from a cache that has not seen its
// writes: it answers from a frozen copy of the store.
type lagging struct {
	client.Client
	frozen client.Reader
}

func (l lagging) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	return l.frozen.Get(ctx, key, obj, opts...)
}

// liveReads counts the reads that reach it.
type liveReads struct {
	client.Reader
	reads *int
}

func (c liveReads) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	*c.reads++
	return c.Reader.Get(ctx, key, obj, opts...)
}

func pod(phase corev1.PodPhase) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p"}, Status: corev1.PodStatus{Phase: phase}}
}

// ownWritesCases write through OwnWrites (or not), then read the object
// while the cache still holds the version before the write.
var ownWritesCases = map[string]struct {
	write     func(ctx context.Context, c client.Client, p *corev1.Pod) error
	after     time.Duration // between the write and the read
	wantPhase corev1.PodPhase
	wantLive  int
}{
	"NoWriteReadsTheCache": {
		write:     func(context.Context, client.Client, *corev1.Pod) error { return nil },
		wantPhase: corev1.PodPending,
	},
	"StatusUpdateReadsLive": {
		write: func(ctx context.Context, c client.Client, p *corev1.Pod) error {
			p.Status.Phase = corev1.PodRunning
			return c.Status().Update(ctx, p)
		},
		wantPhase: corev1.PodRunning, wantLive: 1,
	},
	"StatusPatchReadsLive": {
		write: func(ctx context.Context, c client.Client, p *corev1.Pod) error {
			base := p.DeepCopy()
			p.Status.Phase = corev1.PodRunning
			return c.Status().Patch(ctx, p, client.MergeFrom(base))
		},
		wantPhase: corev1.PodRunning, wantLive: 1,
	},
	"UpdateReadsLive": {
		write: func(ctx context.Context, c client.Client, p *corev1.Pod) error {
			p.Labels = map[string]string{"l": "v"}
			return c.Update(ctx, p)
		},
		wantPhase: corev1.PodPending, wantLive: 1,
	},
	"RefusedWriteReadsTheCache": {
		write: func(ctx context.Context, c client.Client, p *corev1.Pod) error {
			p.ResourceVersion = "1"
			p.Status.Phase = corev1.PodRunning
			if err := c.Status().Update(ctx, p); err == nil {
				return context.Canceled // the stale version should have conflicted
			}
			return nil
		},
		wantPhase: corev1.PodPending,
	},
	"OldWriteReadsTheCache": {
		write: func(ctx context.Context, c client.Client, p *corev1.Pod) error {
			p.Status.Phase = corev1.PodRunning
			return c.Status().Update(ctx, p)
		},
		after:     staleFor + time.Second,
		wantPhase: corev1.PodPending,
	},
}

func TestOwnWrites(t *testing.T) {
	for name, tc := range ownWritesCases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			store := fake.NewClientBuilder().WithObjects(pod(corev1.PodPending)).WithStatusSubresource(&corev1.Pod{}).Build()
			frozen := fake.NewClientBuilder().WithObjects(pod(corev1.PodPending)).Build()
			now, reads := time.Unix(0, 0), 0
			c := OwnWrites(lagging{Client: store, frozen: frozen}, liveReads{Reader: store, reads: &reads}, func() time.Time { return now })

			p := &corev1.Pod{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "a", Name: "p"}, p); err != nil {
				t.Fatalf("Get: %v", err)
			}
			if err := tc.write(ctx, c, p); err != nil {
				t.Fatalf("write: %v", err)
			}
			now = now.Add(tc.after)
			got := &corev1.Pod{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "a", Name: "p"}, got); err != nil {
				t.Fatalf("Get: %v", err)
			}
			if diff := cmp.Diff(tc.wantPhase, got.Status.Phase); diff != "" {
				t.Errorf("phase read after the write: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantLive, reads); diff != "" {
				t.Errorf("live reads: -want, +got:\n%s", diff)
			}
		})
	}
}

// A read that finds a version other than the one replaced ends the record:
// the cache caught up, and later reads are the cache's again.
func TestOwnWritesForgetsOnceTheCacheCatchesUp(t *testing.T) {
	ctx := context.Background()
	store := fake.NewClientBuilder().WithObjects(pod(corev1.PodPending)).WithStatusSubresource(&corev1.Pod{}).Build()
	reads := 0
	cache := &lagging{Client: store, frozen: fake.NewClientBuilder().WithObjects(pod(corev1.PodPending)).Build()}
	c := OwnWrites(cache, liveReads{Reader: store, reads: &reads}, time.Now)
	key := client.ObjectKey{Namespace: "a", Name: "p"}

	p := &corev1.Pod{}
	if err := c.Get(ctx, key, p); err != nil {
		t.Fatalf("Get: %v", err)
	}
	p.Status.Phase = corev1.PodRunning
	if err := c.Status().Update(ctx, p); err != nil {
		t.Fatalf("Update: %v", err)
	}
	cache.frozen = store // the cache caught up
	if err := c.Get(ctx, key, &corev1.Pod{}); err != nil {
		t.Fatalf("Get: %v", err)
	}
	if diff := cmp.Diff([2]int{0, 0}, [2]int{len(c.(*ownWrites).log.before), reads}); diff != "" {
		t.Errorf("records and live reads after the cache caught up: -want, +got:\n%s", diff)
	}
}
