import { describe, expect, it, vi } from 'vitest';

/** A fresh copy of src/engine/libs.ts (the Vitest setup loaded the shared one). */
async function fresh() {
  vi.resetModules();
  return import('./libs');
}

describe('engine libraries loaded on demand (src/engine/libs.ts)', () => {
  it('says which call is missing before they are loaded, and serves them after', async () => {
    const libs = await fresh();
    expect(libs.engineLibrariesLoaded()).toBe(false);
    expect(() => libs.cronParser()).toThrow('cron-parser is not loaded: await loadEngineLibraries() (src/engine/libs.ts) before the engine meets a CronJob, a custom resource or a field-validated request');
    expect(() => libs.fieldTable()).toThrow(libs.EngineLibraryNotLoadedError);
    expect(() => libs.ajvClass()).toThrow(libs.EngineLibraryNotLoadedError);
    await libs.loadEngineLibraries();
    expect(libs.engineLibrariesLoaded()).toBe(true);
    const next = libs.cronParser().CronExpressionParser.parse('*/5 * * * *', { currentDate: Date.UTC(2026, 0, 1, 0, 1), tz: 'UTC' }).next();
    expect(new Date(next.getTime()).toISOString()).toBe('2026-01-01T00:05:00.000Z');
    const Ajv = libs.ajvClass();
    expect(new Ajv().compile({ type: 'integer' })('3')).toBe(false);
    expect(libs.fieldTable().kinds.Deployment).toBe('apps/v1');
  });

  it('the cronjob-controller meets a CronJob schedule only through them', async () => {
    const libs = await fresh();
    const { nextScheduleTime } = await import('./controllers/cronjob');
    expect(() => nextScheduleTime('0 * * * *', 0)).toThrow(libs.EngineLibraryNotLoadedError);
    await libs.loadEngineLibraries();
    expect(nextScheduleTime('0 * * * *', 0)).toBe(3_600_000);
  });

  it('strict decoding reads the field table only through them', async () => {
    const libs = await fresh();
    const { hasFieldTable } = await import('./api/decode');
    expect(() => hasFieldTable('apps/v1', 'Deployment')).toThrow(libs.EngineLibraryNotLoadedError);
    await libs.loadEngineLibraries();
    expect(hasFieldTable('apps/v1', 'Deployment')).toBe(true);
  });
});
