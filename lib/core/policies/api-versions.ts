/**
 * Which Kubernetes versions serve the admission-policy APIs the generator emits: facts with their sources, so
 * `--kubernetes-version` picks the MutatingAdmissionPolicy version and refuses a cluster that has neither.
 */
import type { Sourced } from '../facts/types';

export interface AdmissionPolicyVersions extends Sourced {
  /** The first minor serving ValidatingAdmissionPolicy as `admissionregistration.k8s.io/v1` (GA). */
  readonly validatingV1: number;
  /** The first minor with MutatingAdmissionPolicy beta (`v1beta1`, behind a feature gate that is off by default). */
  readonly mutatingV1beta1: number;
  /** The first minor serving MutatingAdmissionPolicy as `v1` (GA, on by default). */
  readonly mutatingV1: number;
}

export const ADMISSION_POLICY_VERSIONS: AdmissionPolicyVersions = {
  validatingV1: 30,
  mutatingV1beta1: 34,
  mutatingV1: 36,
  sources: [
    {
      ref: 'https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/',
      checked: '2026-11-27',
      says: 'FEATURE STATE: Kubernetes v1.30 [stable]',
    },
    {
      ref: 'https://www.kubernetes.dev/resources/keps/3962/',
      checked: '2026-11-27',
      says: 'KEP-3962 Mutating Admission Policies: Alpha v1.32, Beta v1.34, Stable v1.36',
    },
    {
      ref: 'https://kubernetes.io/docs/reference/access-authn-authz/mutating-admission-policy',
      checked: '2026-11-27',
      says: 'v1beta1: "enable the MutatingAdmissionPolicy feature gate (which is off by default) and set --runtime-config=admissionregistration.k8s.io/v1beta1=true"',
    },
  ],
};
