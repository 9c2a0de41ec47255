package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A row is one managed resource in the status table.
type row struct {
	kind, name, ready, synced, conflict, why string
}

// A conditioned resource reports conditions.
type conditioned interface {
	client.Object
	GetCondition(xpv2.ConditionType) xpv2.Condition
}

// rows lists every Tier, Bucket, BucketLifecycle and BucketAccess that
// opts select.
func rows(ctx context.Context, c client.Client, opts ...client.ListOption) ([]row, error) {
	var out []row
	tiers, buckets, lcs, access := &v1alpha1.TierList{}, &v1alpha1.BucketList{}, &v1alpha1.BucketLifecycleList{}, &v1alpha1.BucketAccessList{}
	for _, l := range []client.ObjectList{tiers, buckets, lcs, access} {
		if err := c.List(ctx, l, opts...); err != nil {
			return nil, err
		}
	}
	for i := range tiers.Items {
		t := &tiers.Items[i]
		out = append(out, newRow(v1alpha1.TierKind, t, t.GetCondition(v1alpha1.TypeTierConflict), tierWhy(t)))
	}
	for i := range buckets.Items {
		b := &buckets.Items[i]
		why := "bucket " + meta.GetExternalName(b) + " created"
		if b.Status.AtProvider.Adopted {
			why = "bucket " + meta.GetExternalName(b) + " adopted"
		}
		out = append(out, newRow(v1alpha1.BucketKind, b, b.GetCondition(v1alpha1.TypeBucketConflict), why))
	}
	for i := range lcs.Items {
		l := &lcs.Items[i]
		why := fmt.Sprintf("%d rule(s) on bucket %s", len(l.Spec.ForProvider.Rules), l.Spec.ForProvider.Bucket)
		out = append(out, newRow(v1alpha1.BucketLifecycleKind, l, xpv2.Condition{}, why))
	}
	for i := range access.Items {
		a := &access.Items[i]
		why := fmt.Sprintf("key %s published in Secret %s", a.Status.AtProvider.AccessKey, secretName(a))
		out = append(out, newRow(v1alpha1.BucketAccessKind, a, xpv2.Condition{}, why))
	}
	return out, nil
}

func secretName(a *v1alpha1.BucketAccess) string {
	if r := a.GetWriteConnectionSecretToReference(); r != nil {
		return r.Name
	}
	return "(none)"
}

// blocking are the conditions that, True, say why a resource is not Ready.
var blocking = []xpv2.ConditionType{v1alpha1.TypeTierConflict, v1alpha1.TypeBucketConflict, v1alpha1.TypeLifecycleDegraded}

// newRow explains o: what it is when Ready, else why not.
func newRow(kind string, o conditioned, conflict xpv2.Condition, readyWhy string) row {
	r := row{kind: kind, name: o.GetNamespace() + "/" + o.GetName(), conflict: "-"}
	ready, synced := o.GetCondition(xpv2.TypeReady), o.GetCondition(xpv2.TypeSynced)
	r.ready, r.synced = status(ready), status(synced)
	if conflict.Type != "" {
		r.conflict = status(conflict)
	}
	var others []xpv2.Condition
	for _, t := range blocking {
		others = append(others, o.GetCondition(t))
	}
	r.why = shorten(explain(ready, synced, others, readyWhy), 120)
	return r
}

// explain is the table's explanation of a resource: readyWhy when it is
// Ready, else the condition that says why not, in this order: a True
// blocking condition (a conflict), Synced=False, Ready's own reason and
// message, Ready's reason alone. Only a resource with none of these is
// "waiting for the provider".
func explain(ready, synced xpv2.Condition, blocking []xpv2.Condition, readyWhy string) string {
	if ready.Status == corev1.ConditionTrue {
		return readyWhy
	}
	for _, c := range blocking {
		if c.Status == corev1.ConditionTrue {
			return said(c)
		}
	}
	switch {
	case synced.Status == corev1.ConditionFalse:
		return "Synced=False " + string(synced.Reason) + ": " + synced.Message
	case ready.Reason != "" && ready.Message != "":
		return said(ready)
	case ready.Reason != "":
		return "Ready=" + string(ready.Status) + " " + string(ready.Reason) + reasonNote[ready.Reason]
	}
	return "waiting for the provider: no condition yet"
}

// said is a condition's type, reason and message.
func said(c xpv2.Condition) string {
	s := string(c.Type) + " " + string(c.Reason)
	if c.Message != "" {
		s += ": " + c.Message
	}
	return s
}

// reasonNote explains the reasons crossplane-runtime sets without a message.
var reasonNote = map[xpv2.ConditionReason]string{
	xpv2.ReasonCreating:    ": created, not yet observed",
	xpv2.ReasonUnavailable: ": observed, not yet available",
}

func tierWhy(t *v1alpha1.Tier) string {
	how := "registered"
	if t.Status.AtProvider.Adopted {
		how = "adopted"
	}
	p := t.Spec.ForProvider
	return fmt.Sprintf("tier %s %s: bucket %s, prefix %q", p.Name, how, p.Bucket, p.Prefix)
}

func status(c xpv2.Condition) string {
	if c.Status == "" {
		return "-"
	}
	return string(c.Status)
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// wait polls until the want managed resources exist and every resource is
// Ready, the deadline passes or ctx ends, printing progress when it changes.
func (d *demo) wait(ctx context.Context, c client.Client, want int, deadline time.Time) ([]row, bool) {
	return d.poll(ctx, deadline, "", func() ([]row, bool) {
		rs, _ := rows(ctx, c)
		return rs, len(rs) >= want && readyCount(rs) == len(rs)
	})
}

// poll calls check every second until it says done, the deadline passes or
// ctx ends, printing "waiting: <what>n/m Ready" of its rows when that
// changes. It returns the last rows and whether check said done.
func (d *demo) poll(ctx context.Context, deadline time.Time, what string, check func() ([]row, bool)) ([]row, bool) {
	last := ""
	for {
		rs, done := check()
		if p := fmt.Sprintf("%s%d/%d Ready", what, readyCount(rs), len(rs)); p != last {
			fmt.Fprintf(d.out, "waiting: %s\n", p)
			last = p
		}
		if done {
			return rs, true
		}
		select {
		case <-ctx.Done():
			return rs, false
		case <-time.After(time.Until(deadline)):
			return rs, false
		case <-time.After(time.Second):
		}
	}
}

func readyCount(rs []row) int {
	n := 0
	for _, r := range rs {
		if r.ready == string(corev1.ConditionTrue) {
			n++
		}
	}
	return n
}

func summary(rs []row, ready bool) string {
	if ready {
		return fmt.Sprintf("All %d resources Ready", len(rs))
	}
	return fmt.Sprintf("%d of %d resources Ready", readyCount(rs), len(rs))
}

// withProofs adds the key proofs' outcome to the summary, and whether all
// passed.
func withProofs(sum string, proofs []row) (string, bool) {
	if len(proofs) == 0 {
		return sum + "; no BucketAccess key to prove", true
	}
	if n := readyCount(proofs); n < len(proofs) {
		return fmt.Sprintf("%s; %d of %d key proofs failed", sum, len(proofs)-n, len(proofs)), false
	}
	return sum + "; the published key works", true
}

// printTable prints rs as a table.
func printTable(w io.Writer, rs []row) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tNAME\tREADY\tSYNCED\tCONFLICT\tEXPLANATION")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.kind, r.name, r.ready, r.synced, r.conflict, r.why)
	}
	_ = tw.Flush()
}
