/**
 * Every rule's fixer, gathered from the check modules where they live beside their checks. `RULES[].fixable`
 * declares the same set (a test keeps the two in step).
 */
import { API_SERVER_FIXES } from '../validate/checks/api-server';
import { HOST_PROCESS_FIXES } from '../validate/checks/host-process';
import { IMAGE_FIXES, releasePin } from '../validate/checks/images';
import { POD_FEATURE_FIXES } from '../validate/checks/pod-features';
import { SCHEDULING_FIXES, targetTolerations } from '../validate/checks/scheduling';
import type { Fixer } from '../validate/fixes';

export const FIXERS: ReadonlyMap<string, Fixer> = new Map(
  [API_SERVER_FIXES, HOST_PROCESS_FIXES, IMAGE_FIXES, POD_FEATURE_FIXES, SCHEDULING_FIXES].flatMap((table) =>
    Object.entries(table).filter((e): e is [string, Fixer] => e[1] !== undefined),
  ),
);

export { releasePin, targetTolerations };
