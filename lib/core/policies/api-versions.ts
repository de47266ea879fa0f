/**
 * Which Kubernetes versions serve the admission-policy APIs the generator emits: facts with their sources, so
 * `--kubernetes-version` picks the MutatingAdmissionPolicy version and refuses a cluster that has neither.
 */
import { githubFile, type Sourced } from '../facts/types';

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
      ref: githubFile(
        'kubernetes/enhancements',
        '64765b4b02389318f2113119dd9e491479f978a0',
        'keps/sig-api-machinery/3488-cel-admission-control/kep.yaml',
      ),
      materialDate: '2026-07-24',
      checked: '2026-12-07',
      says: 'KEP-3488 (ValidatingAdmissionPolicy): milestone alpha "v1.26", beta "1.28", stable "1.30"',
    },
    {
      ref: githubFile(
        'kubernetes/enhancements',
        '64765b4b02389318f2113119dd9e491479f978a0',
        'keps/sig-api-machinery/3962-mutating-admission-policies/kep.yaml',
      ),
      materialDate: '2026-07-24',
      checked: '2026-12-07',
      says: 'KEP-3962 Mutating Admission Policies: milestone alpha "v1.32", beta "v1.34", stable "v1.36"',
    },
    {
      ref: githubFile('kubernetes/apiserver', 'v0.37.0', 'pkg/features/kube_features.go', 420),
      materialDate: '2026-08-26',
      checked: '2026-12-07',
      says: 'MutatingAdmissionPolicy: 1.32 Alpha Default false, 1.34 Beta Default false, 1.36 GA Default true (Go module k8s.io/apiserver@v0.37.0)',
    },
  ],
};
