// kube-test-cluster: kube-apiserver and kube-controller-manager of Kubernetes v1.37.2 in one binary, for the tests
// that need a real API server (test/helpers/kube-apiserver.ts). The first argument names the component, the rest
// are its own flags:
//
//	kube-test-cluster kube-apiserver --etcd-servers=http://127.0.0.1:2379 ...
//	kube-test-cluster kube-controller-manager --kubeconfig=... --controllers=validatingadmissionpolicy-status-controller
//
// One binary, so the two share one build (most of their code is the same).
package main

import (
	"fmt"
	"os"
	_ "time/tzdata" // as cmd/kube-apiserver and cmd/kube-controller-manager

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // JSON log format, as the upstream mains
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics, as the upstream mains
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric, as the upstream mains
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	var command *cobra.Command
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "kube-apiserver":
			command = apiserver.NewAPIServerCommand()
		case "kube-controller-manager":
			command = controllermanager.NewControllerManagerCommand()
		}
	}
	if command == nil {
		fmt.Fprintln(os.Stderr, "usage: kube-test-cluster kube-apiserver|kube-controller-manager [flags]")
		os.Exit(2)
	}
	command.SetArgs(os.Args[2:])
	os.Exit(cli.Run(command))
}
