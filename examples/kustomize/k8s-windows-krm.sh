#!/bin/sh
# Kustomize exec KRM function: a ResourceList on stdin, the fixed ResourceList (with results) on stdout.
# Options come from the function config's spec (windows-fix.yaml).
exec k8s-windows fix --krm
