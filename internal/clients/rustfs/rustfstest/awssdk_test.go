package rustfstest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// An independent S3 client (the AWS SDK for Go v2, path style, static
// credentials) talks to the emulator, so the emulator speaks real S3 and not
// only our client's dialect.
func TestAWSSDKCreatesBucketAndLifecycle(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SeedTier(TierRecord{Type: "rustfs", Name: "COLD"})
	ctx := context.Background()
	c := s3.New(s3.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL()),
		UsePathStyle: true,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: DefaultAccessKey, SecretAccessKey: DefaultSecretKey}, nil
		}),
	})
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("sdk-bucket")}); err != nil {
		t.Fatalf("CreateBucket: %v", err)
	}
	if _, err := c.PutBucketLifecycleConfiguration(ctx, lifecycleInput("COLD")); err != nil {
		t.Fatalf("PutBucketLifecycleConfiguration: %v", err)
	}
	out, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: aws.String("sdk-bucket")})
	if err != nil {
		t.Fatalf("GetBucketLifecycleConfiguration: %v", err)
	}
	if len(out.Rules) != 1 || len(out.Rules[0].Transitions) != 1 ||
		string(out.Rules[0].Transitions[0].StorageClass) != "COLD" || aws.ToInt32(out.Rules[0].Transitions[0].Days) != 0 {
		t.Errorf("rules read back: %+v", out.Rules)
	}
	_, err = c.PutBucketLifecycleConfiguration(ctx, lifecycleInput("UNREGISTERED"))
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "InvalidArgument" || !strings.Contains(apiErr.ErrorMessage(), "invalid tier.") {
		t.Errorf("unregistered tier: want InvalidArgument \"invalid tier.\", got %v", err)
	}
}

func lifecycleInput(tier string) *s3.PutBucketLifecycleConfigurationInput {
	return &s3.PutBucketLifecycleConfigurationInput{
		Bucket: aws.String("sdk-bucket"),
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: []types.LifecycleRule{{
			ID:          aws.String("to-cold"),
			Status:      types.ExpirationStatusEnabled,
			Filter:      &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Transitions: []types.Transition{{Days: aws.Int32(0), StorageClass: types.TransitionStorageClass(tier)}},
		}}},
	}
}
