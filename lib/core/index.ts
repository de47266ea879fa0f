/**
 * k8s-windows core: the Windows model, the pod transforms and the rules, with no framework dependency.
 * Every front door (cdk8s, Pulumi, the CLI, the policy pack) builds on these.
 */
export * from './errors';
export * from './kube';
export * from './releases';
export * from './images';
export * from './target';
export * from './windows-fields';
export * from './windows-options';
export * from './workloads';
export * from './pod-spec';
