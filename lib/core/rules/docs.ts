/** Upstream pages the rules link as their documentation. */
export const K8S_WINDOWS = 'https://kubernetes.io/docs/concepts/windows/intro/';
export const VERSION_COMPAT =
  'https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility';
export const NETWORKING = 'https://kubernetes.io/docs/concepts/services-networking/windows-networking/';
export const RESOURCES = 'https://kubernetes.io/docs/concepts/configuration/windows-resource-management/';
export const HOST_PROCESS = 'https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/';
export const STORAGE = 'https://kubernetes.io/docs/concepts/storage/windows-storage/';
export const K8S_WINDOWS_GUIDE = 'https://kubernetes.io/docs/concepts/windows/user-guide/';
export const GMSA = 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/';
export const RUNTIME_CLASS = 'https://kubernetes.io/docs/concepts/containers/runtime-class/';
export const CREDSPEC =
  'https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/manage-serviceaccounts';
export const GMSA_NON_DOMAIN = 'https://github.com/kubernetes-sigs/windows-gmsa';
export const OBJECTS = 'https://kubernetes.io/docs/concepts/overview/working-with-objects/';
export const ANNOTATIONS = 'https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations/';
export const DEPRECATION_GUIDE = 'https://kubernetes.io/docs/reference/using-api/deprecation-guide/';
export const FIELD_VALIDATION = 'https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation';
export const QUANTITY = 'https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/';
