#!/usr/bin/env bash
# Mutation check for the end-to-end tests (not run by CI). It runs the e2e
# tests once unchanged (the baseline), then applies each deliberate break
# below to the provider's source, one at a time, runs the e2e tests against
# it, prints which tests fail beyond the baseline, and restores every file
# it changed from a copy taken before the change (only those files). A
# break that no test catches is reported as SURVIVED and makes the script
# exit 1. The test logs are kept in a printed directory.
#
#   hack/mutate.sh              every mutation against all e2e tests
#   hack/mutate.sh NAME...      only the named mutations
#   MUTATE_RUN=REGEXP           pass -run REGEXP to go test
#
# The script edits files in place: run it on a tree nobody else is editing,
# for example a copy made with `git archive HEAD | tar -x -C DIR`.
set -euo pipefail
cd "$(dirname "$0")/.."

export KUBEBUILDER_ASSETS=${KUBEBUILDER_ASSETS:-$(hack/tools.sh assets)}
saved=$(mktemp -d)
touched=()

# restore copies back every file a mutation changed.
restore() {
	local f
	for f in "${touched[@]+"${touched[@]}"}"; do
		cp "$saved/$(echo "$f" | tr / %)" "$f"
	done
	touched=()
}
trap 'restore; rm -rf "$saved"' EXIT
trap 'exit 130' INT TERM

# edit FILE PERL: applies a perl substitution to FILE and fails if it
# changed nothing (the code moved on: update this script).
edit() {
	local file=$1 expr=$2 copy
	copy="$saved/$(echo "$file" | tr / %)"
	[ -e "$copy" ] || cp "$file" "$copy"
	touched+=("$file")
	perl -0pi -e "$expr" "$file"
	if cmp -s "$file" "$copy"; then
		echo "mutation did not apply to $file; update hack/mutate.sh" >&2
		return 1
	fi
}

# The mutations: each function applies one deliberate break.

# Adoption and rotation no longer edit the tier's credentials.
skip_credential_edit() {
	edit internal/controller/tier/write.go \
		's/err = e\.edit\(ctx, cr, c\)/err = nil/'
}

# A live tier whose prefix differs from the spec is not a conflict.
ignore_differing_prefix() {
	edit internal/controller/tier/compare.go \
		's/normalPrefix\(live\.Type, live\.Prefix\) == normalPrefix\(desired\.Type, desired\.Prefix\)\)/true)/'
}

# Observe never finds the lifecycle up to date, so every reconcile puts it.
put_lifecycle_every_poll() {
	edit internal/controller/bucketlifecycle/observe.go \
		's/ResourceUpToDate: v\.upToDate,/ResourceUpToDate: false,/'
}

# Secret events no longer reach the Tiers that use the Secret.
drop_secret_watch() {
	edit internal/controller/tier/tier.go \
		's/WatchesMetadata\(&corev1\.Secret\{\}, handler\.EnqueueRequestsFromMapFunc\(tiersUsingSecret\(kube, log\)\)\)/WatchesMetadata(&corev1.Secret{}, handler.Funcs{})/'
}

# Deleting a BucketLifecycle deletes the bucket's rules: the CRD defaults
# managementPolicies to ["*"] without the rule that forbids it, and Delete
# removes the configuration.
delete_on_mr_deletion() {
	edit package/provider/crds/rustfs.m.crossplane.io_bucketlifecycles.yaml \
		's/(managementPolicies:\n\s+default:\n)\s+- Observe\n\s+- Create\n\s+- Update\n\s+- LateInitialize\n/$1                - "*"\n/'
	edit package/provider/crds/rustfs.m.crossplane.io_bucketlifecycles.yaml \
		"s/rule: '!has\\(self\\.managementPolicies\\) \\|\\|/rule: 'true ||/"
	edit internal/controller/bucketlifecycle/bucketlifecycle.go \
		's/func \(e \*external\) Delete\(context\.Context, \*v1alpha1\.BucketLifecycle\) \(managed\.ExternalDelete, error\) \{\n\treturn managed\.ExternalDelete\{\}, nil/func (e *external) Delete(ctx context.Context, cr *v1alpha1.BucketLifecycle) (managed.ExternalDelete, error) {\n\treturn managed.ExternalDelete{}, e.client.DeleteLifecycle(ctx, cr.Spec.ForProvider.Bucket)/'
}

# A tierRef resolves before the Tier is Ready, so rules can be put before
# RustFS knows the tier: neither the resolver nor the gate in front of the
# managed reconciler (await.go) waits for Ready any more.
resolve_tier_before_ready() {
	edit apis/v1alpha1/references.go \
		's/if !ok \|\| r\.GetCondition\(xpv2\.TypeReady\)\.Status != corev1\.ConditionTrue \{/if !ok || (false \&\& r.GetCondition(xpv2.TypeReady).Status != corev1.ConditionTrue) {/'
	edit internal/controller/bucketlifecycle/await.go \
		's/\tif ready\(r\.obj\) \{/\tif true {/'
}

all=(skip_credential_edit ignore_differing_prefix put_lifecycle_every_poll drop_secret_watch delete_on_mr_deletion resolve_tier_before_ready)
selected=("${@:-${all[@]}}")
run=()
[ -n "${MUTATE_RUN:-}" ] && run=(-run "$MUTATE_RUN")

logs=$(mktemp -d "${TMPDIR:-/tmp}/mutate-logs-XXXX")

# e2e NAME: runs the e2e tests, logging to $logs/NAME.log, and prints the
# names of the tests that failed.
e2e() {
	go test -count=1 -timeout 15m "${run[@]+"${run[@]}"}" ./test/e2e/ >"$logs/$1.log" 2>&1 || true
	if grep -qE '^(# |FAIL\s.*\[(build|setup) failed\])' "$logs/$1.log"; then
		echo "BUILD-FAILED"
		return
	fi
	grep -E '^\s*--- FAIL: ' "$logs/$1.log" | sed -E 's/^\s*--- FAIL: ([^ ]+).*/\1/' | sort -u || true
}

echo "==> baseline (no mutation)"
baseline=$(e2e baseline)
survived=0
results=("baseline: $(if [ -z "$baseline" ]; then echo "every test passes"; else echo "failing without any mutation:"; fi)")
while read -r t; do [ -n "$t" ] && results+=("    $t"); done <<<"$baseline"
for m in "${selected[@]}"; do
	echo "==> mutation $m"
	"$m"
	start=$(date +%s)
	failed=$(e2e "$m")
	restore
	took=$(($(date +%s) - start))
	caught=$(comm -23 <(echo "$failed") <(echo "$baseline") | grep -v '^$' || true)
	if [ "$failed" = "BUILD-FAILED" ]; then
		results+=("$m: BUILD FAILED (update hack/mutate.sh; see $logs/$m.log)")
		survived=1
	elif [ -z "$caught" ]; then
		results+=("$m: SURVIVED: no test beyond the baseline failed (${took}s)")
		survived=1
	else
		results+=("$m: caught in ${took}s by:")
		while read -r t; do results+=("    $t"); done <<<"$caught"
	fi
done

echo
echo "==> results (logs in $logs)"
printf '%s\n' "${results[@]}"
exit "$survived"
