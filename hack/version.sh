#!/usr/bin/env bash
# Prints the version that builds stamp into the binaries and tag the
# packages with: the nearest v-tag as `git describe` gives it
# (v0.2.0, v0.2.0-3-gabc1234, …-dirty), or v0.0.0-g<commit>[-dirty] before
# the first tag. Every form is a semantic version, which Crossplane needs to
# resolve a package dependency by tag.
set -euo pipefail
cd "$(dirname "$0")/.."
if v=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
	echo "$v"
elif c=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	git diff --quiet HEAD 2>/dev/null && echo "v0.0.0-g$c" || echo "v0.0.0-g$c-dirty"
else
	echo v0.0.0-dev
fi
