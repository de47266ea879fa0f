// etcd for the live API server tests (test/helpers/kube-apiserver.ts), built by scripts/test-tools.sh from the
// go.etcd.io/etcd/server/v3 module: the module's own main (server/main.go), which `go install module@version`
// cannot build because the module's go.mod replaces its sibling modules with local paths.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
