/**
 * `-o` for the commands that print the objects they changed (create, apply, scale, label, ...):
 * the printer formats of cli-runtime's PrintFlags without the table ones.
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/genericclioptions/print_flags.go (`AllowedFormats`,
 * `NoCompatiblePrinterError`).
 */
import type { KubeObject } from '../../engine/api/types';
import { GO_TEMPLATE_FORMATS, PrintError, parseGoTemplateOutput, printObjects, unknownFormatMessage } from '../printers';
import { fail } from './env';

/** The `-o` values of a mutation command, in kubectl's message order. */
export const MUTATION_OUTPUT_FORMATS = ['json', 'yaml', 'name', 'go-template', 'go-template-file', 'template', 'templatefile', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file'];

/** Refuse an `-o` value the command has no printer for (before doing anything). */
export function checkOutputFormat(output: string): void {
  if (output === '') return;
  const eq = output.indexOf('=');
  const format = eq < 0 ? output : output.slice(0, eq);
  if (!MUTATION_OUTPUT_FORMATS.includes(format)) throw fail(unknownFormatMessage(output, MUTATION_OUTPUT_FORMATS));
  checkGoTemplate(output);
}

/**
 * For `-o go-template=TEXT` (and `template`, `go-template-file`, `templatefile`: the shell has
 * inlined `--template` and template files): parse the template before any request, as kubectl
 * builds its printer first. Throws the CmdError kubectl prints for a bad template; any other
 * `-o` value passes.
 */
export function checkGoTemplate(output: string): void {
  const eq = output.indexOf('=');
  const format = eq < 0 ? output : output.slice(0, eq);
  if (!GO_TEMPLATE_FORMATS.includes(format)) return;
  try {
    parseGoTemplateOutput(eq < 0 ? '' : output.slice(eq + 1));
  } catch (e) {
    if (e instanceof PrintError) throw fail(e.message);
    throw e;
  }
}

/** Print changed objects in `-o` format, each as itself (not as a List). */
export function printResult(objs: KubeObject[], output: string): string {
  try {
    return printObjects(objs, output, { list: false });
  } catch (e) {
    if (e instanceof PrintError) throw fail(e.message);
    throw e;
  }
}

/**
 * A printer used for several objects in a row: YAML documents after the first are preceded by
 * `---` (cli-runtime printers/yaml.go counts what it printed).
 */
export class ResultPrinter {
  private count = 0;
  constructor(private readonly output: string) {}
  print(obj: KubeObject): string {
    const text = printResult([obj], this.output);
    const sep = this.output === 'yaml' && this.count > 0 ? '---\n' : '';
    this.count++;
    return sep + text;
  }
}
