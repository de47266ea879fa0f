import { inspect } from 'node:util';
import { WindowsValidationError } from 'k8s-windows';

describe('WindowsValidationError', () => {
  const error = new WindowsValidationError(
    [
      {
        path: 'securityContext.user',
        message: 'runAsUser 1000 has no meaning on Windows.',
        fix: 'Use windows.runAsUserName.',
      },
      { path: 'replicas', message: 'replicas -1 is negative.' },
    ],
    'WindowsDeployment web',
  );

  test('lists every issue in its message, and keeps them as data', () => {
    expect(error.message).toBe(
      [
        'WindowsDeployment web: 2 Windows validation problems:',
        '  - securityContext.user: runAsUser 1000 has no meaning on Windows. Fix: Use windows.runAsUserName.',
        '  - replicas: replicas -1 is negative.',
      ].join('\n'),
    );
    expect(error.issues.map((i) => i.path)).toEqual(['securityContext.user', 'replicas']);
  });

  test('an uncaught error prints the list once (Node shows enumerable properties after the stack)', () => {
    const printed = inspect(error);
    expect(printed.split('runAsUser 1000 has no meaning').length - 1).toBe(1);
    expect(printed).not.toContain('issues:');
  });
});
