/**
 * The k8s-windows policy pack program. Constructing a `PolicyPack` starts the analyzer's gRPC server, which runs
 * until the Pulumi engine stops it: import this file only from a pack folder's entry point, never from a library
 * module or a test. Usage: see `examples/pulumi/policy-pack/`.
 */
import { PolicyPack } from '@pulumi/policy';
import { windowsPolicyPackArgs } from './policies';

new PolicyPack('k8s-windows', windowsPolicyPackArgs());
