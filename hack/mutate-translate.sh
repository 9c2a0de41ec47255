#!/usr/bin/env bash
# Mutation check for the spec -> wire lifecycle translation. make test runs
# a seeded sample of it (make mutate); run it whole before changing
# translate.go or its tests.
# It removes, one at a time, every single field assignment (and every
# element assignment) of internal/controller/bucketlifecycle/translate.go,
# runs the package's tests against each mutant, prints which tests fail
# beyond the unmutated baseline, and restores the file from a copy taken
# before the first change. A mutation no test catches is SURVIVED and makes
# the script exit 1. Logs are kept in a printed directory.
#
#   hack/mutate-translate.sh            every mutation, the package's unit tests (-short)
#   hack/mutate-translate.sh NAME...    only the named mutations
#   MUTATE_RUN=REGEXP                   pass -run REGEXP to go test, for example
#                                       MUTATE_RUN=RuleModel for the property tests alone
#   MUTATE_API=1                        also run the API server tests (KUBEBUILDER_ASSETS
#                                       from hack/tools.sh assets)
#   MUTATE_SAMPLE=N                     only N mutations, chosen by MUTATE_SEED (default: the
#                                       time); the seed is printed, so a run can be repeated
#
# The script edits translate.go in place: run it on a tree nobody else is
# editing, for example a copy made with `git archive HEAD | tar -x -C DIR`.
set -euo pipefail
cd "$(dirname "$0")/.."

file=internal/controller/bucketlifecycle/translate.go
pkg=./internal/controller/bucketlifecycle/
saved=$(mktemp)
cp "$file" "$saved"
trap 'cp "$saved" "$file"; rm -f "$saved"' EXIT
trap 'exit 130' INT TERM

# The mutations: NAME|perl substitution. Each removes one assignment.
mutations=(
	'rule_id|s/\{ID: r\.ID, /{/'
	'rule_status|s/Status: string\(r\.Status\), //'
	'rule_status_default|s/\t\tout\.Status = string\(v1alpha1\.RuleEnabled\)\n/\t\t_ = v1alpha1.RuleEnabled\n/'
	'rule_filter|s/, Filter: translateFilter\(r\.Filter\)\}/}/'
	'transitions|s/out\.Transitions = append\(out\.Transitions, (rustfs\.Transition\{.*?\})\)/_ = $1/s'
	'transition_days|s/\t\t\tDays: copyInt32\(t\.Days\), Date:/\t\t\tDate:/'
	'transition_date|s/Date: normalizeDate\(t\.Date\), //'
	'transition_storage_class|s/normalizeDate\(t\.Date\), StorageClass: t\.StorageClass,/normalizeDate(t.Date),/'
	'noncurrent_transitions|s/out\.NoncurrentVersionTransitions = append\(out\.NoncurrentVersionTransitions, (rustfs\.NoncurrentVersionTransition\{.*?\})\)/_ = $1/s'
	'noncurrent_transition_days|s/NoncurrentDays: int32p\(t\.NoncurrentDays\), //'
	'noncurrent_transition_newer|s/NewerNoncurrentVersions: copyInt32\(t\.NewerNoncurrentVersions\), //'
	'noncurrent_transition_storage_class|s/copyInt32\(t\.NewerNoncurrentVersions\), StorageClass: t\.StorageClass,/copyInt32(t.NewerNoncurrentVersions),/'
	'expiration|s/out\.Expiration = &rustfs\.Expiration\{/_ = &rustfs.Expiration{/'
	'expiration_days|s/Days: copyInt32\(x\.Days\), Date:/Date:/'
	'expiration_date|s/, Date: normalizeDate\(x\.Date\),/,/'
	'expiration_expired_object_delete_marker|s/ExpiredObjectDeleteMarker: copyBool\(x\.ExpiredObjectDeleteMarker\), //'
	'expiration_expired_object_all_versions|s/, ExpiredObjectAllVersions: copyBool\(x\.ExpiredObjectAllVersions\)//'
	'noncurrent_expiration|s/out\.NoncurrentVersionExpiration = &rustfs/_ = &rustfs/'
	'noncurrent_expiration_days|s/NoncurrentDays: int32p\(x\.NoncurrentDays\), //'
	'noncurrent_expiration_newer|s/, NewerNoncurrentVersions: copyInt32\(x\.NewerNoncurrentVersions\),/,/'
	'abort_incomplete_multipart_upload|s/out\.AbortIncompleteMultipartUpload = &rustfs/_ = &rustfs/'
	'abort_days_after_initiation|s/\{DaysAfterInitiation: int32p\(x\.DaysAfterInitiation\)\}/{}/'
	'del_marker_expiration|s/out\.DelMarkerExpiration = &rustfs/_ = &rustfs/'
	'del_marker_expiration_days|s/DelMarkerExpiration\{Days: int32p\(x\.Days\)\}/DelMarkerExpiration{}/'
	'filter_prefix|s/\tout\.Prefix = stringp\(f\.Prefix\)\n//'
	'filter_object_size_greater_than|s/out\.ObjectSizeGreaterThan, out\.ObjectSizeLessThan = copyInt64\(f\.ObjectSizeGreaterThan\), /out.ObjectSizeLessThan = /'
	'filter_object_size_less_than|s/out\.ObjectSizeGreaterThan, out\.ObjectSizeLessThan = copyInt64\(f\.ObjectSizeGreaterThan\), copyInt64\(f\.ObjectSizeLessThan\)/out.ObjectSizeGreaterThan = copyInt64(f.ObjectSizeGreaterThan)/'
	'filter_tag|s/out\.Tag = &rustfs\.Tag/_ = &rustfs.Tag/'
	'filter_tag_key|s/Tag\{Key: f\.Tag\.Key, /Tag{/'
	'filter_tag_value|s/, Value: f\.Tag\.Value\}/}/'
	'filter_and_prefix|s/\t\t\tPrefix:                stringp\(a\.Prefix\),\n//'
	'filter_and_object_size_greater_than|s/ObjectSizeGreaterThan: copyInt64\(a\.ObjectSizeGreaterThan\), //'
	'filter_and_object_size_less_than|s/, ObjectSizeLessThan: copyInt64\(a\.ObjectSizeLessThan\),/,/'
	'filter_and_tags|s/out\.And\.Tags = append\(out\.And\.Tags, (rustfs\.Tag\{Key: t\.Key, Value: t\.Value\})\)/_ = $1/'
	'filter_and_tag_key|s/rustfs\.Tag\{Key: t\.Key, Value: t\.Value\}/rustfs.Tag{Value: t.Value}/'
	'filter_and_tag_value|s/rustfs\.Tag\{Key: t\.Key, Value: t\.Value\}/rustfs.Tag{Key: t.Key}/'
)

run=()
[ -n "${MUTATE_RUN:-}" ] && run=(-run "$MUTATE_RUN")
short=(-short)
if [ -n "${MUTATE_API:-}" ]; then
	export KUBEBUILDER_ASSETS=${KUBEBUILDER_ASSETS:-$(hack/tools.sh assets)}
	short=()
fi
logs=$(mktemp -d "${TMPDIR:-/tmp}/mutate-translate-XXXX")

# tests NAME: runs the package's tests, logging to $logs/NAME.log, and
# prints the names of the tests that failed.
tests() {
	go test -count=1 "${short[@]+"${short[@]}"}" "${run[@]+"${run[@]}"}" "$pkg" >"$logs/$1.log" 2>&1 || true
	if grep -qE '^(# |FAIL\s.*\[(build|setup) failed\])' "$logs/$1.log"; then
		echo "BUILD-FAILED"
		return
	fi
	grep -E '^--- FAIL: ' "$logs/$1.log" | sed -E 's/^--- FAIL: ([^ ]+).*/\1/' | sort -u || true
}

selected=("$@")
if [ -n "${MUTATE_SAMPLE:-}" ] && [ ${#selected[@]} -eq 0 ]; then
	seed=${MUTATE_SEED:-$(date +%s)}
	mapfile -t selected < <(printf '%s\n' "${mutations[@]%%|*}" |
		awk -v seed="$seed" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' | sort -k1,1 | cut -f2 | head -n "$MUTATE_SAMPLE")
	echo "==> $MUTATE_SAMPLE of ${#mutations[@]} mutations, seed $seed (repeat: MUTATE_SEED=$seed MUTATE_SAMPLE=$MUTATE_SAMPLE hack/mutate-translate.sh)"
fi
echo "==> baseline (no mutation)"
baseline=$(tests baseline)
if [ -n "$baseline" ]; then
	echo "the unmutated package fails: $baseline (see $logs/baseline.log)" >&2
	exit 2
fi
survived=0
printf '%-42s %s\n' MUTATION RESULT
for m in "${mutations[@]}"; do
	name=${m%%|*}
	expr=${m#*|}
	if [ ${#selected[@]} -gt 0 ] && ! printf '%s\n' "${selected[@]}" | grep -qx "$name"; then
		continue
	fi
	perl -0pi -e "$expr" "$file"
	if cmp -s "$file" "$saved"; then
		printf '%-42s %s\n' "$name" "DID NOT APPLY: update hack/mutate-translate.sh"
		survived=1
		continue
	fi
	failed=$(tests "$name")
	cp "$saved" "$file"
	if [ "$failed" = "BUILD-FAILED" ]; then
		printf '%-42s %s\n' "$name" "BUILD FAILED: update hack/mutate-translate.sh ($logs/$name.log)"
		survived=1
	elif [ -z "$failed" ]; then
		printf '%-42s %s\n' "$name" "SURVIVED"
		survived=1
	else
		printf '%-42s caught by %s\n' "$name" "$(echo "$failed" | paste -sd, -)"
	fi
done
echo "(logs in $logs)"
exit "$survived"
