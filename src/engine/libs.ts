/**
 * Libraries the engine needs only for some objects, loaded on demand so the simulation worker
 * boots and draws the cluster without them (issue #6: the browser's initial JavaScript):
 *
 * - `cron-parser` (with `luxon`, about 100 KB minified): the cronjob-controller's schedule
 *   arithmetic (src/engine/controllers/cronjob.ts), needed once a CronJob exists;
 * - `ajv` (with `fast-uri`, about 115 KB minified): validation of custom resources against their
 *   CRD's schema (src/engine/api/crd.ts), needed once a custom resource is written;
 * - the field table of strict decoding (src/engine/api/schema/fields.json, 42 KB), read only by
 *   requests that ask for field validation (`kubectl apply/create/edit`, the YAML editor:
 *   src/engine/api/decode.ts); the controllers and the boot never do.
 *
 * None runs while a cluster boots (no CronJob or custom resource is part of the kind cluster or
 * the bookshop's `make up`, and no component asks for field validation: src/worker/host.lazy.test.ts
 * boots without them); such requests come only from what a person runs (a shell line, the YAML
 * editor), and the worker loads these libraries together with the shell's and the editor's code,
 * before any of their input reaches the engine (src/worker/lines.ts, src/worker/host.ts). Node
 * entry points (the CLI runner, the Vitest setup) await `loadEngineLibraries()` once before they
 * start. (fast-json-patch stays a static import: kind's CNI install patches kindnet at boot.)
 *
 * The engine stays synchronous: `cronParser()` / `ajvClass()` / `fieldTable()` return what was
 * loaded, or throw `EngineLibraryNotLoadedError` naming the call that was missing. Loading has no
 * effect on the simulation (the libraries are pure functions of their inputs), so determinism is
 * untouched.
 */
import type * as CronParserModule from 'cron-parser';
import type AjvModule from 'ajv';

/** The `cron-parser` module (its `CronExpressionParser` and `CronDate`). */
export type CronParser = Pick<typeof CronParserModule, 'CronExpressionParser' | 'CronDate'>;
/** The `Ajv` class of the `ajv` package. */
export type AjvClass = typeof AjvModule;

/** The strict-decoding field table: kind -> apiVersion, and Go type -> field -> Go type (scripts/gen-fields.mjs). */
export interface FieldTable {
  kinds: Record<string, string>;
  types: Record<string, Record<string, string>>;
}

let cron: CronParser | undefined;
let ajv: AjvClass | undefined;
let fields: FieldTable | undefined;
let loading: Promise<void> | undefined;

/** A library was asked for before `loadEngineLibraries()` had settled. */
export class EngineLibraryNotLoadedError extends Error {
  constructor(lib: string) {
    super(`${lib} is not loaded: await loadEngineLibraries() (src/engine/libs.ts) before the engine meets a CronJob, a custom resource or a field-validated request`);
    this.name = 'EngineLibraryNotLoadedError';
  }
}

/**
 * Load `cron-parser`, `ajv` and the field table (once; later calls return the same promise).
 * Resolves when all are usable; rejects if a chunk cannot be fetched (a later call tries again).
 */
export function loadEngineLibraries(): Promise<void> {
  loading ??= Promise.all([import('cron-parser'), import('ajv'), import('./api/schema/fields.json')]).then(
    ([c, a, f]) => {
      fields = (f as unknown as { default: FieldTable }).default;
      // CommonJS packages: the named exports, or the same under `default` (bundler interop).
      const cm = c as unknown as Partial<CronParser> & { default?: Partial<CronParser> };
      const named = cm.CronExpressionParser && cm.CronDate ? cm : cm.default;
      if (!named?.CronExpressionParser || !named.CronDate) throw new Error('cron-parser: CronExpressionParser/CronDate not exported');
      cron = { CronExpressionParser: named.CronExpressionParser, CronDate: named.CronDate };
      const am = a as unknown as { default: { default?: AjvClass } };
      ajv = am.default.default ?? (am.default as AjvClass);
    },
    (e: unknown) => {
      loading = undefined;
      throw e;
    },
  );
  return loading;
}

/** True once all of them are loaded. */
export function engineLibrariesLoaded(): boolean {
  return cron !== undefined && ajv !== undefined && fields !== undefined;
}

/** The field table, loaded. Throws `EngineLibraryNotLoadedError` before `loadEngineLibraries()` settled. */
export function fieldTable(): FieldTable {
  if (!fields) throw new EngineLibraryNotLoadedError('the field table (src/engine/api/schema/fields.json)');
  return fields;
}

/** `cron-parser`, loaded. Throws `EngineLibraryNotLoadedError` before `loadEngineLibraries()` settled. */
export function cronParser(): CronParser {
  if (!cron) throw new EngineLibraryNotLoadedError('cron-parser');
  return cron;
}

/** The `Ajv` class, loaded. Throws `EngineLibraryNotLoadedError` before `loadEngineLibraries()` settled. */
export function ajvClass(): AjvClass {
  if (!ajv) throw new EngineLibraryNotLoadedError('ajv');
  return ajv;
}
