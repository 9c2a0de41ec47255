package tenant

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/crossplane/function-sdk-go/resource"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// How much a composed resource's state matters to the reader of a status
// row; the row shows the reason and message of the most severe one.
const (
	severityOK = iota
	severityPending
	severityDegraded
	severityNotSynced
	severityFailed
	severityConflict
)

// A finding is what one composed resource says about its tier or bucket.
type finding struct {
	ready    bool
	synced   bool
	severity int
	reason   string
	message  string
}

// A signal is a condition that, when hit, explains the resource's state.
type signal struct {
	severity int
	cond     xpv2.Condition
	hit      bool
}

// genericReasons are the Ready reasons that explain nothing beyond the
// status itself; a Synced=False message is more useful than these.
var genericReasons = map[xpv2.ConditionReason]bool{
	xpv2.ReasonAvailable: true, xpv2.ReasonUnavailable: true, xpv2.ReasonCreating: true, xpv2.ReasonDeleting: true, "": true,
}

// observe reads the conditions of the composed resource at key, a kind. A
// Tier in conflict is explained by its TierConflict condition; otherwise a
// specific Ready=False reason, then a Synced=False message, then a degraded
// lifecycle, then a pending Ready condition.
func observe(kind string, observed map[resource.Name]resource.ObservedComposed, key resource.Name) finding {
	o, ok := observed[key]
	if !ok {
		return finding{severity: severityPending, reason: string(xpv2.ReasonCreating), message: "waiting for the " + kind + " to be created"}
	}
	ready := o.Resource.GetCondition(xpv2.TypeReady)
	synced := o.Resource.GetCondition(xpv2.TypeSynced)
	conflict := o.Resource.GetCondition(v1alpha1.TypeTierConflict)
	if kind == v1alpha1.BucketKind {
		conflict = o.Resource.GetCondition(v1alpha1.TypeBucketConflict)
	}
	degraded := o.Resource.GetCondition(v1alpha1.TypeLifecycleDegraded)
	f := finding{ready: ready.Status == corev1.ConditionTrue, synced: synced.Status == corev1.ConditionTrue}
	for _, s := range []signal{
		{severity: severityConflict, cond: conflict, hit: conflict.Status == corev1.ConditionTrue},
		{severity: severityFailed, cond: ready, hit: ready.Status == corev1.ConditionFalse && !genericReasons[ready.Reason]},
		{severity: severityNotSynced, cond: synced, hit: synced.Status == corev1.ConditionFalse},
		{severity: severityDegraded, cond: degraded, hit: degraded.Status == corev1.ConditionTrue},
		{severity: severityPending, cond: ready, hit: !f.ready},
	} {
		if s.hit {
			f.severity, f.reason, f.message = s.severity, string(s.cond.Reason), s.cond.Message
			break
		}
	}
	if f.severity == severityPending && f.reason == "" {
		f.reason, f.message = string(xpv2.ReasonCreating), "waiting for the "+kind+" to become Ready"
	}
	if f.severity == severityOK {
		f.reason = string(ready.Reason)
	}
	return f
}

// row summarises the findings of an entry's composed resources: ready and
// synced when all are, explained by the most severe finding (the first of
// equals), whose severity it returns too.
func row(name string, fs ...finding) (ItemStatus, int) {
	out := ItemStatus{Name: name, Ready: true, Synced: true}
	worst := -1
	for _, f := range fs {
		out.Ready = out.Ready && f.ready
		out.Synced = out.Synced && f.synced
		if f.severity > worst {
			worst, out.Reason, out.Message = f.severity, f.reason, f.message
		}
	}
	return out, worst
}

// A tally counts rows for the status summary.
type tally struct{ ready, total, conflicts int }

func (t *tally) add(r ItemStatus, severity int) ItemStatus {
	t.total++
	if r.Ready {
		t.ready++
	}
	if severity == severityConflict {
		t.conflicts++
	}
	return r
}

func (t tally) String() string { return strconv.Itoa(t.ready) + "/" + strconv.Itoa(t.total) }

// appliedCredentials is what the observed Tier at key records of the
// credentials last applied to it (Secret name, resourceVersion and
// access-key hash), or nil when it records none.
func appliedCredentials(observed map[resource.Name]resource.ObservedComposed, key resource.Name) *v1alpha1.TierCredentialsStatus {
	o, ok := observed[key]
	if !ok {
		return nil
	}
	c := &v1alpha1.TierCredentialsStatus{}
	if err := o.Resource.GetValueInto("status.atProvider.credentials", c); err != nil || *c == (v1alpha1.TierCredentialsStatus{}) {
		return nil
	}
	return c
}

// statusRows are the Tenant's status rows, in spec order: one per tier from
// its Tier, with the credentials it applied; one per bucket from its Bucket and BucketLifecycle; and their
// summary.
func statusRows(s TenantSpec, observed map[resource.Name]resource.ObservedComposed) TenantStatus {
	var st TenantStatus
	var tiers, buckets tally
	for _, t := range s.Tiers {
		key := resourceKey(partTier, t.Name)
		r := tiers.add(row(t.Name, observe(v1alpha1.TierKind, observed, key)))
		st.Tiers = append(st.Tiers, TierStatus{ItemStatus: r, Credentials: appliedCredentials(observed, key)})
	}
	for _, b := range s.Buckets {
		fs := []finding{observe(v1alpha1.BucketKind, observed, resourceKey(partBucket, b.Name))}
		if b.Lifecycle != nil {
			fs = append(fs, observe(v1alpha1.BucketLifecycleKind, observed, resourceKey(partLifecycle, b.Name)))
		}
		r, severity := row(b.Name, fs...)
		r.Usage, r.Quota = usage(observed, resourceKey(partBucket, b.Name))
		st.Buckets = append(st.Buckets, buckets.add(r, severity))
	}
	st.Summary = &StatusSummary{Tiers: tiers.String(), Buckets: buckets.String(), Conflicts: tiers.conflicts + buckets.conflicts}
	return st
}

// usage returns the usage and quota the composed Bucket at key reports in
// status.atProvider, "" for each it does not report.
func usage(observed map[resource.Name]resource.ObservedComposed, key resource.Name) (string, string) {
	o, ok := observed[key]
	if !ok {
		return "", ""
	}
	u, _ := o.Resource.GetString("status.atProvider.usage")
	q, _ := o.Resource.GetString("status.atProvider.quota")
	return u, q
}
