/**
 * Vitest setup (vitest.config.ts `setupFiles`): the engine's on-demand libraries
 * (src/engine/libs.ts: cron-parser, ajv, the field table) are loaded before any test runs, as the
 * CLI loads them before it starts, so tests meet a CronJob, a custom resource or a field-validated
 * request the way the worker does once its shell has loaded.
 */
import { loadEngineLibraries } from './libs';

await loadEngineLibraries();
