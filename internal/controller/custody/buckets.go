package custody

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Buckets lists, from kube, the Buckets of every namespace whose external
// name is bucket (IndexExternalName): the resources that may own it.
func Buckets(ctx context.Context, kube client.Reader, bucket string) ([]Subject, error) {
	l := &v1alpha1.BucketList{}
	if err := kube.List(ctx, l, client.MatchingFields{IndexExternalName: bucket}); err != nil {
		return nil, errors.Wrapf(err, "cannot list the Buckets of bucket %q", bucket)
	}
	out := make([]Subject, len(l.Items))
	for i := range l.Items {
		out[i] = &l.Items[i]
	}
	return out, nil
}
