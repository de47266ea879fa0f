/**
 * aks-windows-profile: the cluster's Windows admin account and gMSA settings
 * (https://learn.microsoft.com/rest/api/aks/managed-clusters/create-or-update#managedclusterwindowsprofile). Split out of
 * aks-windows-cluster. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_CLUSTER, AKS_POOL_COMPONENT } from './cloud-resources';
import { checkAdminPassword, checkAdminUsername, checkGmsaDns, isPlainObject } from '../cloud/aks-cluster';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-profile',
    family: 'aks',
    defaultSeverity: 'error',
    summary:
      'An AKS cluster without a windowsProfile, or with an admin user, password or gMSA DNS setting Azure refuses, in a stack with Windows pools.',
    rationale:
      'AKS refuses Windows pools on a cluster created without a windowsProfile, and the profile cannot be added later.',
    docs: 'https://learn.microsoft.com/rest/api/aks/managed-clusters/create-or-update#managedclusterwindowsprofile',
    severityReason: 'AKS refuses the Windows pool or the cluster.',
  },
  messages: {
    'no-profile': {
      description: 'A cluster without a windowsProfile, which takes no Windows pools.',
      message:
        'The cluster has no windowsProfile: AKS refuses Windows pools on it, and the profile cannot be added later (Azure/AKS#1005).',
      fix: 'Create the cluster with windowsProfile: windowsClusterProfile({ adminUsername, adminPassword }).windowsProfile.',
    },
    'admin-account': {
      description: 'A Windows admin username or password AKS refuses.',
      message: '{message}',
      fix: '{fix}',
    },
    'gmsa-dns': {
      description: 'gMSA switched on with only one of its DNS server and root domain name.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_CLUSTER, AKS_POOL_COMPONENT],
    run: {
      'aks-cluster': ({ windowsProfile }, _context, report) => {
        if (windowsProfile === undefined || windowsProfile === null) {
          report({ path: 'windowsProfile', messageId: 'no-profile' });
          return;
        }
        if (!isPlainObject(windowsProfile)) return;
        const gmsa = windowsProfile.gmsaProfile;
        for (const i of [
          ...checkAdminUsername(windowsProfile.adminUsername, 'windowsProfile.adminUsername'),
          ...checkAdminPassword(windowsProfile.adminPassword, 'windowsProfile.adminPassword', false),
        ]) {
          report({ path: i.path, messageId: 'admin-account', data: { message: i.message, fix: i.fix } });
        }
        if (isPlainObject(gmsa) && gmsa.enabled === true) {
          for (const i of checkGmsaDns(gmsa.dnsServer, gmsa.rootDomainName, 'windowsProfile.gmsaProfile')) {
            report({ path: i.path, messageId: 'gmsa-dns', data: { message: i.message, fix: i.fix } });
          }
        }
      },
      // `windowsClusterProfile`'s args: the password is required there (it builds the profile).
      'aks-profile-component': ({ adminUsername, adminPassword, gmsa }, _context, report) => {
        for (const i of [
          ...checkAdminUsername(adminUsername, 'adminUsername'),
          ...checkAdminPassword(adminPassword, 'adminPassword', true),
        ]) {
          report({ path: i.path, messageId: 'admin-account', data: { message: i.message, fix: i.fix } });
        }
        if (gmsa === undefined) return;
        for (const i of checkGmsaDns(gmsa.dnsServer, gmsa.rootDomainName, 'gmsa')) {
          report({ path: i.path, messageId: 'gmsa-dns', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
