/** `k8s-windows facts`: the Windows facts the rules judge by, as of a date, in text or JSON. */
import { evaluationDate } from '../core/facts/support';
import type { FactsCommand } from './args';
import { factsReport, formatFactsText } from './format-facts';
import { EXIT_OK, type CliIO } from './io';
import { packageInfo } from './package-info';

export function runFacts(command: FactsCommand, io: CliIO): number {
  const date = evaluationDate(command.date);
  const info = packageInfo();
  const tool = { name: info.name, version: info.version };
  switch (command.format) {
    case 'text':
      io.stdout.write(formatFactsText(date, tool));
      break;
    case 'json':
      io.stdout.write(`${JSON.stringify(factsReport(date, tool), null, 2)}\n`);
      break;
    default: {
      const unknownFormat: never = command.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }
  return EXIT_OK;
}
