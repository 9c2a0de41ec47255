// Command xpkgtool builds the runtime images of provider-rustfs's packages
// without a Docker daemon, writes the Dockerfiles that build the same
// images with Docker, prepares the Configuration package for a build,
// reads images and packages back, and serves an in-memory OCI registry for
// the install test. `make xpkg` (hack/xpkg.sh) and `make generate` drive it.
//
//	xpkgtool binary --runtime PKG --version V -o BIN [flags]  build the static binary of a runtime image
//	xpkgtool image --runtime PKG --binary BIN --version V -o IMAGE.tar [flags]
//	                                                       build a runtime image tarball; print its digest
//	xpkgtool dockerfiles [--root DIR]                      write cluster/images/PKG/Dockerfile for each runtime image
//	xpkgtool configure --dir DIR --registry R --version V  point a staged Configuration at the packages just built
//	xpkgtool inspect FILE                                  print a JSON report of an image or .xpkg tarball
//	xpkgtool extract FILE PATH OUT                         copy one file out of an image or .xpkg
//	xpkgtool registry [--addr 127.0.0.1:0]                 serve an OCI registry; print its address first
package main

import (
	"fmt"
	"os"
)

func main() {
	cmds := map[string]func([]string) error{
		"binary":      runBinary,
		"image":       runImage,
		"dockerfiles": runDockerfiles,
		"configure":   runConfigure,
		"inspect":     runInspect,
		"extract":     runExtract,
		"registry":    runRegistry,
	}
	if len(os.Args) < 2 || cmds[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: xpkgtool binary|image|dockerfiles|configure|inspect|extract|registry [flags]")
		os.Exit(2)
	}
	if err := cmds[os.Args[1]](os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "xpkgtool %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
