package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// rootfs is where the Dockerfiles' build stage lays out the image's files.
const rootfs = "/rootfs"

// versionArg is the Dockerfiles' build argument that holds the version.
const versionArg = "${VERSION}"

// imageEntries are the files of r's image as make xpkg builds it, the
// binary last; the CA bundle and the binary have no data here.
func imageEntries(r runtimeImage) []entry {
	return append(rootEntries(nil), file(path.Join(binDir, r.Cmd), 0o755, nil))
}

// writeBuildStage writes the stage that cross-compiles the binary on the
// build platform (as xpkgtool binary does) and lays out every file of the
// image under rootfs with the contents, modes and owners of make xpkg's.
func writeBuildStage(b *strings.Builder, r runtimeImage, src buildSource) {
	b.WriteString(`
# Compile for the target platform on the build platform, then lay out the
# image's files with the contents, modes and owners of make xpkg's image.
FROM --platform=$BUILDPLATFORM $GO_IMAGE AS build
ARG TARGETOS
ARG TARGETARCH
ARG VERSION
WORKDIR /src
COPY go.mod go.sum ./
`)
	for _, d := range src.Dirs {
		fmt.Fprintf(b, "COPY %s/ %s/\n", d, d)
	}
	env := append(slices.Clone(goBuildEnv), "GOOS=${TARGETOS}", "GOARCH=${TARGETARCH}")
	fmt.Fprintf(b, "RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \\\n    %s go %s\n",
		strings.Join(env, " "), shellJoin(r.goBuildArgs(versionArg, path.Join(rootfs, binDir, r.Cmd))))
	entries := imageEntries(r)
	for _, e := range entries {
		if !e.dir && e.data != nil {
			fmt.Fprintf(b, "COPY <<\"EOF\" %s\n%sEOF\n", path.Join(rootfs, e.path), e.data)
		}
	}
	cmds := []string{"cd " + rootfs, "mkdir -p " + strings.Join(paths(entries, func(e entry) bool { return e.dir }), " ")}
	cmds = append(cmds, "cp "+defaultCACerts+" "+caBundle)
	cmds = append(cmds, grouped("chown", entries, func(e entry) string { return fmt.Sprintf("%d:%d", e.id, e.id) })...)
	cmds = append(cmds, grouped("chmod", entries, func(e entry) string { return strconv.FormatInt(e.mode, 8) })...)
	fmt.Fprintf(b, "RUN %s\n", strings.Join(cmds, " && \\\n    "))
}

// writeFinalStage writes the image's stage: from scratch, as make xpkg's
// image has no base, the files of the build stage and the run config of
// make xpkg's image (runConfig).
func writeFinalStage(b *strings.Builder, r runtimeImage) {
	c := runConfig(r.spec(versionArg, "", "", "", ""))
	fmt.Fprintf(b, `
# The image: those files alone, run as make xpkg's image runs.
FROM scratch
ARG VERSION
COPY --from=build %s/ /
`, rootfs)
	for _, e := range c.Env {
		fmt.Fprintf(b, "ENV %s\n", e)
	}
	fmt.Fprintf(b, "WORKDIR %s\nUSER %s\n", c.WorkingDir, c.User)
	fmt.Fprintf(b, "EXPOSE %s\n", strings.Join(slices.Sorted(maps.Keys(c.ExposedPorts)), " "))
	for _, k := range slices.Sorted(maps.Keys(c.Labels)) {
		fmt.Fprintf(b, "LABEL %s=%q\n", k, c.Labels[k])
	}
	ep, _ := json.Marshal(c.Entrypoint) // A []string always marshals.
	fmt.Fprintf(b, "ENTRYPOINT %s\n", ep)
}

// paths are the paths of the entries that keep says to.
func paths(entries []entry, keep func(entry) bool) []string {
	var out []string
	for _, e := range entries {
		if keep(e) {
			out = append(out, e.path)
		}
	}
	return out
}

// grouped is one cmd per distinct key of the entries, in the order the
// keys first appear: "cmd key path...".
func grouped(cmd string, entries []entry, key func(entry) string) []string {
	var keys []string
	for _, e := range entries {
		if k := key(e); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		ps := paths(entries, func(e entry) bool { return key(e) == k })
		out = append(out, cmd+" "+k+" "+strings.Join(ps, " "))
	}
	return out
}

// shellJoin joins args for a POSIX shell, double-quoting those with
// spaces; none holds a quote or backslash, and a $ is meant to expand.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.ContainsAny(a, " \t") {
			out[i] = `"` + a + `"`
		}
	}
	return strings.Join(out, " ")
}
