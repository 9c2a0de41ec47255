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

// rows lists every Tier, Bucket and BucketLifecycle.
func rows(ctx context.Context, c client.Client) ([]row, error) {
	var out []row
	tiers, buckets, lcs := &v1alpha1.TierList{}, &v1alpha1.BucketList{}, &v1alpha1.BucketLifecycleList{}
	for _, l := range []client.ObjectList{tiers, buckets, lcs} {
		if err := c.List(ctx, l); err != nil {
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
		out = append(out, newRow(v1alpha1.BucketKind, b, xpv2.Condition{}, why))
	}
	for i := range lcs.Items {
		l := &lcs.Items[i]
		why := fmt.Sprintf("%d rules on bucket %s", len(l.Spec.ForProvider.Rules), l.Spec.ForProvider.Bucket)
		out = append(out, newRow(v1alpha1.BucketLifecycleKind, l, xpv2.Condition{}, why))
	}
	return out, nil
}

// newRow explains o: what it is when Ready, else why not.
func newRow(kind string, o conditioned, conflict xpv2.Condition, readyWhy string) row {
	r := row{kind: kind, name: o.GetNamespace() + "/" + o.GetName(), conflict: "-"}
	ready, synced := o.GetCondition(xpv2.TypeReady), o.GetCondition(xpv2.TypeSynced)
	r.ready, r.synced = status(ready), status(synced)
	if conflict.Type != "" {
		r.conflict = status(conflict)
	}
	switch {
	case ready.Status == corev1.ConditionTrue:
		r.why = readyWhy
	case ready.Reason != "" && ready.Message != "":
		r.why = string(ready.Reason) + ": " + ready.Message
	case synced.Message != "":
		r.why = string(synced.Reason) + ": " + synced.Message
	default:
		r.why = "waiting for the provider"
	}
	r.why = shorten(r.why, 110)
	return r
}

func tierWhy(t *v1alpha1.Tier) string {
	how := "registered"
	if t.Status.AtProvider.Adopted {
		how = "adopted"
	}
	p := t.Spec.ForProvider
	return fmt.Sprintf("tier %s %s: %s bucket %s, prefix %q", p.Name, how, p.Endpoint, p.Bucket, p.Prefix)
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
	last := ""
	var rs []row
	for {
		rs, _ = rows(ctx, c)
		n := readyCount(rs)
		if p := fmt.Sprintf("%d/%d Ready", n, len(rs)); p != last {
			fmt.Fprintf(d.out, "waiting: %s\n", p)
			last = p
		}
		if len(rs) >= want && n == len(rs) {
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
