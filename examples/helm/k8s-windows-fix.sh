#!/bin/sh
# Helm post-renderer: Helm's rendered manifests on stdin, the Windows-correct manifests on stdout.
# Exits 1 (and Helm stops) when errors are left that fix cannot settle; the report goes to stderr.
# Say what your Windows nodes are: their taints and release (k8s-windows fix --help).
exec k8s-windows fix --toleration os=windows:NoSchedule --windows-release 2022 -
