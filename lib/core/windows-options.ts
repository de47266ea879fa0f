/**
 * Format rules for `securityContext.windowsOptions`, as the API server checks them
 * (https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go, `validateWindowsSecurityContextOptions`), plus the HostProcess user names
 * (https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/).
 * Each function returns problems as sentences, empty when the value is valid.
 */

/** Longest gMSA credspec the API server accepts inline, in bytes. */
export const MAX_GMSA_CREDENTIAL_SPEC_BYTES = 64 * 1024;
/** @internal */
export const MAX_DOMAIN_BYTES = 256;
/** @internal */
export const MAX_USER_BYTES = 104;
/**
 * A NetBIOS domain name: 1-15 characters, none of `\\ / : * ? " < > |`, not starting with a period.
 * @internal
 */
export const NETBIOS_DOMAIN_NAME = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
/**
 * One label of a DNS name, any case (RFC 1123).
 * @internal
 */
export const DNS_LABEL = /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
/**
 * Characters a Windows account name (user part, sAMAccountName) cannot hold.
 * @internal
 */
export const ACCOUNT_NAME_FORBIDDEN_CHARS = /["/\\:;|=,+*?<>@[\]]/;
/**
 * Control characters, which no runAsUserName may hold.
 * @internal
 */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARS = /[\x00-\x1f\x7f]/;
/**
 * What a user part cannot consist of alone.
 * @internal
 */
export const PERIODS_AND_SPACES = /^[. ]+$/;

/** The accounts a HostProcess container may run as (https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/#choosing-a-user-account). */
export const HOST_PROCESS_USERS = [
  'NT AUTHORITY\\SYSTEM',
  'NT AUTHORITY\\Local service',
  'NT AUTHORITY\\NetworkService',
] as const;

/** Least-privileged non-admin user present in every Windows base image. */
export const CONTAINER_USER = 'ContainerUser';

/** The administrator account present in every Windows base image (the images' default user). */
export const CONTAINER_ADMINISTRATOR = 'ContainerAdministrator';

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Problems with a `runAsUserName`, in the API server's terms. */
export function runAsUserNameProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length === 0) return ['runAsUserName cannot be empty.'];
  if (CONTROL_CHARS.test(value)) problems.push('runAsUserName cannot contain control characters.');
  const parts = value.split('\\');
  if (parts.length > 2) {
    problems.push('runAsUserName may contain at most one "\\" separating domain and user.');
    return problems;
  }
  const [domain, user] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (domain !== undefined) {
    if (byteLength(domain) >= MAX_DOMAIN_BYTES)
      problems.push(`runAsUserName's domain must be under ${MAX_DOMAIN_BYTES} bytes.`);
    const isNetbios = NETBIOS_DOMAIN_NAME.test(domain);
    const isDns = domain.split('.').every((l) => DNS_LABEL.test(l));
    if (!isNetbios && !isDns) {
      problems.push(`runAsUserName's domain '${domain}' is neither a NetBIOS name nor a DNS name.`);
    }
  }
  if (user.length === 0) problems.push("runAsUserName's user name cannot be empty.");
  else {
    if (byteLength(user) > MAX_USER_BYTES)
      problems.push(`runAsUserName's user name must be at most ${MAX_USER_BYTES} bytes.`);
    if (PERIODS_AND_SPACES.test(user))
      problems.push("runAsUserName's user name cannot consist only of periods and spaces.");
    if (ACCOUNT_NAME_FORBIDDEN_CHARS.test(user)) {
      problems.push(`runAsUserName's user name '${user}' cannot contain any of " / \\ : ; | = , + * ? < > @ [ ].`);
    }
  }
  return problems;
}

/**
 * One label of a lowercase RFC 1123 name.
 * @internal
 */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/**
 * The longest RFC 1123 subdomain.
 * @internal
 */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/** A lowercase RFC 1123 subdomain of at most 253 characters (Kubernetes object names). */
export function isDns1123Subdomain(value: string): boolean {
  return (
    value.length > 0 &&
    value.length <= DNS1123_SUBDOMAIN_MAX_LENGTH &&
    value.split('.').every((l) => DNS1123_LABEL.test(l))
  );
}

/** Problems with a `gmsaCredentialSpecName`. */
export function gmsaCredentialSpecNameProblems(value: string): string[] {
  return isDns1123Subdomain(value)
    ? []
    : [
        `gmsaCredentialSpecName '${value}' must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-', '.'; at most 253 characters).`,
      ];
}

/** Whether a HostProcess container may run as this user (case-insensitive, as Windows compares account names). */
export function isHostProcessUser(value: unknown): boolean {
  return typeof value === 'string' && HOST_PROCESS_USERS.some((u) => u.toLowerCase() === value.toLowerCase());
}
