// Command xpkgtool builds the runtime images of provider-rustfs's packages
// without a Docker daemon, prepares the Configuration package for a build,
// reads images and packages back, and serves an in-memory OCI registry for
// the install test. `make xpkg` (hack/xpkg.sh) drives it.
//
//	xpkgtool image --binary BIN -o IMAGE.tar [flags]      build a runtime image tarball; print its digest
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
		"image":     runImage,
		"configure": runConfigure,
		"inspect":   runInspect,
		"extract":   runExtract,
		"registry":  runRegistry,
	}
	if len(os.Args) < 2 || cmds[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: xpkgtool image|configure|inspect|extract|registry [flags]")
		os.Exit(2)
	}
	if err := cmds[os.Args[1]](os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "xpkgtool %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
