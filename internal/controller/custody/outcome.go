package custody

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// Created clears the block recorded on s and records in its custody that
// the provider created what s names (Save writes status itself: status set
// otherwise in Create would be discarded).
func Created(ctx context.Context, kube client.Client, s Subject) error {
	memo.Delete(s, memo.BlockKey)
	was := Record(s)
	rec := was
	rec.Acquired = v1alpha1.AcquiredCreated
	return Save(ctx, kube, s, was, rec)
}
