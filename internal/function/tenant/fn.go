package tenant

import (
	"context"
	"maps"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/function-sdk-go/logging"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/request"
	"github.com/crossplane/function-sdk-go/response"
)

// A Function renders a Tenant into Tiers, Buckets, BucketLifecycles and
// BucketAccesses and reports their state in the Tenant's status rows.
type Function struct {
	fnv1.UnimplementedFunctionRunnerServiceServer

	log logging.Logger
}

// NewFunction returns a Function that logs to log.
func NewFunction(log logging.Logger) *Function {
	return &Function{log: log}
}

// RunFunction renders the observed Tenant. Invalid input is a fatal result
// naming the offending entry; Crossplane then changes no composed resource.
func (f *Function) RunFunction(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	log := f.log.WithValues("tag", req.GetMeta().GetTag())
	rsp := response.To(req, response.DefaultTTL)
	if err := run(req, rsp); err != nil {
		log.Info("Cannot render the Tenant", "error", err)
		response.Fatal(rsp, err)
		return rsp, nil
	}
	log.Debug("Rendered the Tenant", "resources", len(rsp.GetDesired().GetResources()))
	return rsp, nil
}

// run is the pipeline: read, validate, render the composed resources next
// to those of earlier steps, and write the status rows.
func run(req *fnv1.RunFunctionRequest, rsp *fnv1.RunFunctionResponse) error {
	t, err := readTenant(req)
	if err != nil {
		return err
	}
	if err := validate(t.spec); err != nil {
		return err
	}
	observed, err := request.GetObservedComposedResources(req)
	if err != nil {
		return errors.Wrap(err, "cannot get the observed composed resources")
	}
	desired, err := request.GetDesiredComposedResources(req)
	if err != nil {
		return errors.Wrap(err, "cannot get the desired composed resources")
	}
	rendered, err := render(t.target(), t.spec, observed)
	if err != nil {
		return err
	}
	maps.Copy(desired, rendered)
	if err := response.SetDesiredComposedResources(rsp, desired); err != nil {
		return errors.Wrap(err, "cannot set the desired composed resources")
	}
	st := statusRows(t.spec, observed)
	st.Access = accessRows(t.target().xr, t.spec.Access, observed)
	return writeStatus(req, rsp, st)
}
