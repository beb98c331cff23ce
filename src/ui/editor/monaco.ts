/**
 * Monaco with monaco-yaml, set up once (this module is only in the editor's lazy chunk).
 * Follows ecosystem-notes.md section (c): the full `monaco-editor` entry (0.54.0, the version
 * monaco-yaml 5.5.1 is tested with), its two workers built by Vite's `?worker` (the yaml worker
 * through the local ./yaml.worker.js shim), nothing from a CDN, schemas given inline under a
 * file-like URI with `enableSchemaRequest: false`, and `isKubernetes: true`.
 */
import * as monaco from 'monaco-editor';
import { configureMonacoYaml, type JSONSchema, type MonacoYaml } from 'monaco-yaml';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';
import YamlWorker from './yaml.worker.js?worker';
import { KUBERNETES_SCHEMA_URI, kubernetesSchema, type CustomKindSchema } from './schema';

/** Model URIs of the editor live under this folder; the schema applies to every `.yaml` there. */
export const MODEL_FOLDER = 'file:///manifests/';

globalThis.MonacoEnvironment = {
  getWorker(_moduleId: string, label: string) {
    return label === 'yaml' ? new YamlWorker() : new EditorWorker();
  },
};

let yaml: MonacoYaml | undefined;
let customKey = '';

function options(custom: readonly CustomKindSchema[]) {
  return {
    enableSchemaRequest: false,
    isKubernetes: true,
    hover: true,
    completion: true,
    validate: true,
    format: { enable: false },
    schemas: [{ uri: KUBERNETES_SCHEMA_URI, fileMatch: ['**/*.yaml'], schema: kubernetesSchema(custom) as JSONSchema }],
  };
}

/** Monaco, with the YAML language configured (the first call does the work). */
export function setupMonaco(): typeof monaco {
  if (!yaml) {
    yaml = configureMonacoYaml(monaco, options([]));
    // Follow the page's light/dark scheme (app.css switches on the same media query).
    const dark = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    monaco.editor.setTheme(dark?.matches ? 'vs-dark' : 'vs');
    dark?.addEventListener('change', (e) => monaco.editor.setTheme(e.matches ? 'vs-dark' : 'vs'));
  }
  return monaco;
}

/** Add the custom kinds of the cluster's CRDs to the schema (no-op when they did not change). */
export function setCustomKinds(custom: readonly CustomKindSchema[]): void {
  const key = JSON.stringify(custom);
  if (key === customKey) return;
  customKey = key;
  setupMonaco();
  void yaml!.update(options(custom));
}
