#!/usr/bin/env node
// cluster-playground: run scripts of shell lines on a simulated kind cluster (see src/cli.ts).
// Runs the TypeScript sources directly through tsx (a devDependency): no build step.
/* global process, URL */
import { register } from 'tsx/esm/api';

register();
const { main } = await import(new URL('../src/cli.ts', import.meta.url).href);
process.exitCode = main(process.argv.slice(2));
