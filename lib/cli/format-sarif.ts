/**
 * SARIF 2.1.0 output of `lint`, for GitHub code scanning and other SARIF viewers: one run, the rule catalogue as
 * `tool.driver.rules`, one result per diagnostic located at the offending field, and input problems (unreadable
 * files, YAML syntax errors) as tool execution notifications.
 * @see https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
 */
import { factsDates } from '../core/facts';
import { ruleMessages } from '../core/rules/front-door';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type { RuleInfo, Severity } from '../core/model/types';
import { renderedNote, type LocatedDiagnostic } from './locate';
import type { PackageInfo } from './package-info';
import { failsOnProblems, STDIN_SOURCE, type InputProblem } from './files';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const SARIF_VERSION = '2.1.0';
/** The base id relative artifact URIs resolve against: the directory `lint` ran in. */
export const SRCROOT = '%SRCROOT%';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifRegion {
  readonly startLine: number;
  readonly startColumn?: number;
}

export interface SarifPhysicalLocation {
  readonly artifactLocation: { readonly uri: string; readonly uriBaseId?: string };
  readonly region?: SarifRegion;
}

export interface SarifLocation {
  readonly physicalLocation?: SarifPhysicalLocation;
  readonly logicalLocations?: ReadonlyArray<{
    readonly name?: string;
    readonly fullyQualifiedName: string;
    readonly kind: string;
  }>;
}

export interface SarifReportingDescriptor {
  readonly id: string;
  readonly shortDescription: { readonly text: string };
  readonly fullDescription: { readonly text: string };
  readonly helpUri: string;
  readonly defaultConfiguration: { readonly level: SarifLevel };
  /** The rule's messages by id, each with its description: what a result's `message.id` names. */
  readonly messageStrings?: Readonly<Record<string, { readonly text: string }>>;
  readonly properties: { readonly family: string };
}

export interface SarifResult {
  readonly ruleId: string;
  readonly ruleIndex?: number;
  readonly level: SarifLevel;
  /** The finding's text and, as `id`, which of the rule's `messageStrings` it is. */
  readonly message: { readonly text: string; readonly id?: string };
  readonly locations: readonly SarifLocation[];
  readonly properties: { readonly path: string };
  /**
   * The suppression written for the result: `inSource` for an annotation on the object, `external` for the config
   * file; `status: 'rejected'` when it is not honoured (SARIF 2.1.0, "suppression object",
   * https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html).
   */
  readonly suppressions?: readonly SarifSuppression[];
}

export interface SarifSuppression {
  readonly kind: 'inSource' | 'external';
  readonly status: 'accepted' | 'rejected';
  readonly justification: string;
  readonly location?: SarifLocation;
}

export interface SarifNotification {
  readonly level: SarifLevel;
  readonly message: { readonly text: string };
  readonly locations?: readonly SarifLocation[];
}

export interface SarifLog {
  readonly $schema: string;
  readonly version: typeof SARIF_VERSION;
  readonly runs: ReadonlyArray<{
    readonly tool: {
      readonly driver: {
        readonly name: string;
        readonly version: string;
        readonly semanticVersion: string;
        readonly informationUri: string;
        /** The newest and oldest day the facts the rules act on were checked (lib/core/facts). */
        readonly properties: { readonly factsChecked: { readonly newest: string; readonly oldest: string } };
        readonly rules: readonly SarifReportingDescriptor[];
      };
    };
    readonly originalUriBaseIds: Readonly<Record<string, { readonly uri: string }>>;
    readonly invocations: ReadonlyArray<{
      readonly executionSuccessful: boolean;
      readonly toolExecutionNotifications: readonly SarifNotification[];
    }>;
    readonly columnKind: 'utf16CodeUnits';
    readonly results: readonly SarifResult[];
  }>;
}

export interface SarifFormatOptions {
  readonly rules: readonly RuleInfo[];
  readonly tool: PackageInfo;
  /** The directory relative sources are relative to. */
  readonly cwd: string;
  readonly inputProblems: readonly InputProblem[];
  /**
   * What the run says besides its findings and problems (that it checked nothing): notifications at level note.
   * @default []
   */
  readonly notes?: readonly string[];
}

export function sarifLevel(severity: Severity): SarifLevel {
  switch (severity) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warning';
    case 'info':
      return 'note';
    default: {
      const unknownSeverity: never = severity;
      throw new Error(`unknown severity ${String(unknownSeverity)}`);
    }
  }
}

/**
 * Artifact location for a source as shown in output. Relative paths become percent-encoded relative URIs against
 * `%SRCROOT%`; absolute ones `file:` URLs; standard input has no artifact (it is nowhere on disk).
 */
export function artifactLocation(source: string | undefined): SarifPhysicalLocation['artifactLocation'] | undefined {
  if (source === undefined || source === STDIN_SOURCE) return undefined;
  if (path.isAbsolute(source)) return { uri: pathToFileURL(source).href };
  return { uri: source.split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function physicalLocation(source?: string, line?: number, column?: number): SarifPhysicalLocation | undefined {
  const artifact = artifactLocation(source);
  if (artifact === undefined) return undefined;
  if (line === undefined) return { artifactLocation: artifact };
  return { artifactLocation: artifact, region: { startLine: line, startColumn: column ?? 1 } };
}

export function formatSarif(items: readonly LocatedDiagnostic[], options: SarifFormatOptions): SarifLog {
  const ruleIndex = new Map(options.rules.map((r, i) => [r.id, i]));
  const results = items.map((item): SarifResult => {
    const d = item.diagnostic;
    const r = d.resource;
    const ns = r.namespace !== undefined ? `${r.namespace}/` : '';
    const physical = physicalLocation(item.source, item.line, item.column);
    const index = ruleIndex.get(d.ruleId);
    return {
      ruleId: d.ruleId,
      ...(index !== undefined ? { ruleIndex: index } : {}),
      level: sarifLevel(d.severity),
      message: {
        text: `${d.message}${renderedNote(item)}${d.fix !== undefined ? ` Fix: ${d.fix}` : ''}`,
        ...(d.messageId !== undefined ? { id: d.messageId } : {}),
      },
      locations: [
        {
          ...(physical !== undefined ? { physicalLocation: physical } : {}),
          logicalLocations: [
            {
              ...(r.name !== undefined ? { name: r.name } : {}),
              fullyQualifiedName: `${r.kind ?? '(no kind)'}/${ns}${r.name ?? '(no name)'}`,
              kind: 'resource',
            },
          ],
        },
      ],
      properties: { path: d.path },
      ...(d.suppression !== undefined
        ? {
            suppressions: [
              {
                kind: d.suppression.kind === 'annotation' ? 'inSource' : 'external',
                status: d.suppression.honoured ? 'accepted' : 'rejected',
                justification: d.suppression.honoured
                  ? d.suppression.reason
                  : `${d.suppression.reason} (not honoured: the API server rejects the object)`,
              },
            ],
          }
        : {}),
    };
  });
  const notifications = options.inputProblems.map((p): SarifNotification => {
    const physical = physicalLocation(p.source, p.line, p.column);
    return {
      level: p.severity ?? 'error',
      message: { text: p.message },
      ...(physical !== undefined ? { locations: [{ physicalLocation: physical }] } : {}),
    };
  });
  for (const text of options.notes ?? []) notifications.push({ level: 'note', message: { text } });
  return {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: options.tool.name,
            version: options.tool.version,
            semanticVersion: options.tool.version,
            informationUri: options.tool.informationUri,
            properties: { factsChecked: factsDates() },
            rules: options.rules.map((rule): SarifReportingDescriptor => {
              const messages = ruleMessages(rule.id);
              return {
                id: rule.id,
                shortDescription: { text: rule.summary },
                fullDescription: { text: rule.rationale },
                helpUri: rule.docs,
                defaultConfiguration: { level: sarifLevel(rule.defaultSeverity) },
                ...(messages !== undefined
                  ? {
                      messageStrings: Object.fromEntries(
                        Object.entries(messages).map(([id, m]) => [id, { text: m.description }]),
                      ),
                    }
                  : {}),
                properties: { family: rule.family },
              };
            }),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(options.cwd + path.sep).href } },
        invocations: [
          {
            executionSuccessful: !failsOnProblems(options.inputProblems),
            toolExecutionNotifications: notifications,
          },
        ],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}
