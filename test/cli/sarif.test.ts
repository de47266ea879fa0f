import { factsDates } from '../../lib/core/facts';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadManifests, RULES, validateManifests } from '../../lib/core/validate';
import type { SarifLog } from '../../lib/cli/format-sarif';
import { artifactLocation } from '../../lib/cli/format-sarif';
import { cli, columnOf, FIXTURES, lineOf, tempTree } from '../helpers/cli';

const WEB = 'windows-web.yaml';
const WEB_TEXT = readFileSync(path.join(FIXTURES, WEB), 'utf8');
const VERSION = (JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string })
  .version;

async function sarif(args: string[], io: Parameters<typeof cli>[1] = {}): Promise<{ code: number; log: SarifLog }> {
  const r = await cli(['lint', '--format', 'sarif', ...args], io);
  return { code: r.code, log: JSON.parse(r.stdout) as SarifLog };
}

describe('k8s-windows lint --format sarif', () => {
  test('SARIF 2.1.0 with the tool and its rule catalogue', async () => {
    const { code, log } = await sarif([WEB]);
    expect(code).toBe(1);
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const driver = log.runs[0].tool.driver;
    expect(driver.name).toBe('k8s-windows');
    expect(driver.version).toBe(VERSION);
    expect(driver.informationUri).toMatch(/^https:\/\//);
    // The facts the rules act on were checked between these days (lib/core/facts).
    expect(driver.properties.factsChecked).toEqual(factsDates());
    expect(driver.rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    const forbidden = RULES.find((r) => r.id === 'windows-forbidden-field')!;
    expect(driver.rules.find((r) => r.id === forbidden.id)).toEqual({
      id: forbidden.id,
      shortDescription: { text: forbidden.summary },
      fullDescription: { text: forbidden.rationale },
      helpUri: forbidden.docs,
      defaultConfiguration: { level: 'error' },
      // The rule's messages by id: what a result's message.id names (SARIF 2.1.0 reportingDescriptor.messageStrings).
      messageStrings: {
        'pod-resources-before-1.34': {
          text: 'Pod-level resources on a Windows pod, for a target before the API server refuses them.',
        },
        forbidden: { text: 'A field the API server forbids on a Windows pod.' },
        'inert-left-out': {
          text: 'A forbidden field a cdk8s prop sets to what Windows does anyway, left out of the manifest (constructs only).',
        },
      },
      properties: { family: forbidden.family },
    });
    const levels = new Set(driver.rules.map((r) => r.defaultConfiguration.level));
    expect([...levels].every((l) => ['error', 'warning', 'note'].includes(l))).toBe(true);
    expect(log.runs[0].originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: pathToFileURL(FIXTURES + path.sep).href } });
    expect(log.runs[0].invocations).toEqual([{ executionSuccessful: true, toolExecutionNotifications: [] }]);
  });

  test('one result per diagnostic, pointing at the file and line of the offending field', async () => {
    const { log } = await sarif([WEB]);
    const diagnostics = validateManifests(loadManifests(WEB_TEXT, WEB));
    const results = log.runs[0].results;
    expect(results.map((r) => r.ruleId)).toEqual(diagnostics.map((d) => d.ruleId));

    const forbidden = diagnostics.find((d) => d.ruleId === 'windows-forbidden-field')!;
    const result = results.find((r) => r.ruleId === 'windows-forbidden-field')!;
    expect(result).toEqual({
      ruleId: 'windows-forbidden-field',
      ruleIndex: RULES.findIndex((r) => r.id === 'windows-forbidden-field'),
      level: 'error',
      message: { text: `${forbidden.message} Fix: ${forbidden.fix}`, id: 'forbidden' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: WEB, uriBaseId: '%SRCROOT%' },
            region: { startLine: lineOf(WEB_TEXT, 'runAsUser: 1000'), startColumn: columnOf(WEB_TEXT, 'runAsUser') },
          },
          logicalLocations: [{ name: 'web', fullyQualifiedName: 'Deployment/shop/web', kind: 'resource' }],
        },
      ],
      properties: { path: 'spec.template.spec.containers[0].securityContext.runAsUser' },
    });

    const service = results.find((r) => r.ruleId === 'windows-service-external-traffic-local')!;
    expect(service.level).toBe('warning');
    expect(service.locations[0].physicalLocation?.region).toEqual({
      startLine: lineOf(WEB_TEXT, 'externalTrafficPolicy: Local'),
      startColumn: 3,
    });
    expect(service.locations[0].logicalLocations?.[0].fullyQualifiedName).toBe('Service/shop/web');
    for (const r of results) expect(log.runs[0].tool.driver.rules[r.ruleIndex!].id).toBe(r.ruleId);
  });

  test('info is note; re-levelled severities show in results, not in the catalogue defaults', async () => {
    const { log } = await sarif(['--severity', 'windows-forbidden-field=info', WEB]);
    expect(log.runs[0].results.find((r) => r.ruleId === 'windows-forbidden-field')?.level).toBe('note');
    const rule = log.runs[0].tool.driver.rules.find((r) => r.id === 'windows-forbidden-field');
    expect(rule?.defaultConfiguration.level).toBe('error');
  });

  test('paths in subdirectories are relative URIs with forward slashes, percent-encoded', async () => {
    const tree = tempTree({ 'deploy/web app.yaml': WEB_TEXT });
    try {
      const { log } = await sarif(['deploy'], { cwd: tree.dir });
      const uris = new Set(log.runs[0].results.map((r) => r.locations[0].physicalLocation?.artifactLocation.uri));
      expect([...uris]).toEqual(['deploy/web%20app.yaml']);
    } finally {
      tree.cleanup();
    }
  });

  test('standard input has no physical location, only the logical one', async () => {
    const { log } = await sarif(['-'], { stdin: WEB_TEXT });
    const result = log.runs[0].results.find((r) => r.ruleId === 'windows-forbidden-field')!;
    expect(result.locations).toEqual([
      { logicalLocations: [{ name: 'web', fullyQualifiedName: 'Deployment/shop/web', kind: 'resource' }] },
    ]);
  });

  test('input problems become tool execution notifications, and the run is marked unsuccessful', async () => {
    const tree = tempTree({ 'bad.yaml': 'kind: [\n' });
    try {
      const r = await cli(['lint', '--format', 'sarif', 'bad.yaml', 'missing.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(2);
      const log = JSON.parse(r.stdout) as SarifLog;
      const invocation = log.runs[0].invocations[0];
      expect(invocation.executionSuccessful).toBe(false);
      expect(invocation.toolExecutionNotifications[0]).toEqual({
        level: 'error',
        message: { text: 'no such file or directory.' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'missing.yaml', uriBaseId: '%SRCROOT%' } } }],
      });
      expect(invocation.toolExecutionNotifications[1]).toMatchObject({
        level: 'error',
        locations: [{ physicalLocation: { artifactLocation: { uri: 'bad.yaml' }, region: { startLine: 2 } } }],
      });
      expect(log.runs[0].results).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });
});

describe('artifactLocation', () => {
  test('relative, absolute, stdin', () => {
    expect(artifactLocation('a/b c.yaml')).toEqual({ uri: 'a/b%20c.yaml', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('/tmp/x#1.yaml')).toEqual({ uri: 'file:///tmp/x%231.yaml' });
    expect(artifactLocation('<stdin>')).toBeUndefined();
    expect(artifactLocation(undefined)).toBeUndefined();
  });
});
