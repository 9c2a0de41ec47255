package tenant

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/request"
	"github.com/crossplane/function-sdk-go/resource/composite"
	"github.com/crossplane/function-sdk-go/response"
)

// LabelClaimNamespace is the label Crossplane puts on a legacy XR created
// for a claim: the claim's namespace.
const LabelClaimNamespace = "crossplane.io/claim-namespace"

// The configuration composed resources use when the Tenant names none (the
// XRD schema defaults it too).
var defaultProviderConfig = xpv2.ProviderConfigReference{Kind: string(KindClusterProviderConfig), Name: "default"}

// An observedTenant is the part of the observed composite resource the
// function renders from.
type observedTenant struct {
	name      string
	namespace string
	spec      TenantSpec
}

// readTenant reads the observed Tenant (or XTenant) and where its composed
// resources go: the Tenant's namespace, or the TenantClaim's for a legacy
// cluster-scoped XTenant.
func readTenant(req *fnv1.RunFunctionRequest) (observedTenant, error) {
	xr, err := request.GetObservedCompositeResource(req)
	if err != nil {
		return observedTenant{}, errors.Wrap(err, "cannot get the observed composite resource")
	}
	t := observedTenant{name: xr.Resource.GetName()}
	if err := xr.Resource.GetValueInto("spec", &t.spec); err != nil {
		return observedTenant{}, errors.Wrap(err, "cannot read the Tenant spec")
	}
	t.namespace, err = composedNamespace(xr.Resource)
	return t, err
}

// composedNamespace is the namespace of the composed resources.
func composedNamespace(xr *composite.Unstructured) (string, error) {
	if ns := xr.GetNamespace(); ns != "" {
		return ns, nil
	}
	if ns := xr.GetLabels()[LabelClaimNamespace]; ns != "" {
		return ns, nil
	}
	return "", errors.Errorf("%s %s has no %s label: create a cluster-scoped XTenant through a TenantClaim, whose namespace receives the composed Tiers, Buckets and BucketLifecycles, or use the namespaced Tenant", xr.GetKind(), xr.GetName(), LabelClaimNamespace)
}

// target is where and how the Tenant's resources are composed.
func (t observedTenant) target() target {
	pc := defaultProviderConfig
	if r := t.spec.ProviderConfigRef; r != nil {
		pc = xpv2.ProviderConfigReference{Kind: string(r.Kind), Name: r.Name}
	}
	return target{xr: t.name, namespace: t.namespace, pc: pc}
}

// writeStatus adds the status rows to the desired composite resource. Empty
// row lists are left out, which removes rows this function wrote before.
func writeStatus(req *fnv1.RunFunctionRequest, rsp *fnv1.RunFunctionResponse, st TenantStatus) error {
	dxr, err := request.GetDesiredCompositeResource(req)
	if err != nil {
		return errors.Wrap(err, "cannot get the desired composite resource")
	}
	fields, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&st)
	if err != nil {
		return errors.Wrap(err, "cannot convert the status rows")
	}
	for k, v := range fields {
		if err := dxr.Resource.SetValue("status."+k, v); err != nil {
			return errors.Wrapf(err, "cannot set status.%s", k)
		}
	}
	return errors.Wrap(response.SetDesiredCompositeResource(rsp, dxr), "cannot set the desired composite resource")
}
