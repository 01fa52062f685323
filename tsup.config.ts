import { defineConfig, type Options } from 'tsup';

// Every package the bundles leave to be installed: the CLI package's dependencies and the optional peers.
const external = [
  'citty',
  'cli-progress',
  'csv-parse',
  'csv-stringify',
  'hyparquet',
  'hyparquet-writer',
  'vega',
  'vega-lite',
  '@duckdb/node-api',
  '@tensorflow/tfjs',
  'pg',
];

const configs: [Options, Options] = [
  // The CommonJS form of the core entry (`require('uncertainty-metrics')`), one bundled file with bundled types
  // (index.d.cts) so that TypeScript's node16/CommonJS resolution finds CommonJS types. The ES modules in dist/ are
  // tsc's; the other entry points are ES modules only (Node ≥ 20.19 requires them).
  {
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    outDir: 'packages/core/dist/cjs',
    tsconfig: 'tsconfig.cjs.json',
    dts: true,
    clean: true,
    target: 'node20',
    platform: 'neutral',
    splitting: false,
    sourcemap: false,
    // keeps the package under 2 MB installed; names are kept so stack traces and error names stay readable
    minify: true,
    keepNames: true,
    external,
  },
  // The `um` command of the CLI package as a few bundled files: Node starts it in ~0.13 s of CPU instead of ~0.25 s
  // spent resolving and compiling the core's ~310 modules one by one. The worker threads' entries are bundled beside
  // it (their code finds them by `new URL('./streamWorker.js', import.meta.url)`, one flat directory).
  {
    entry: {
      um: 'src/cli/bin.ts',
      streamWorker: 'src/cli/streamWorker.ts',
      rowStatsWorker: 'src/parallel/rowStatsWorker.ts',
    },
    format: ['esm'],
    outDir: 'packages/cli/dist',
    tsconfig: 'tsconfig.cjs.json',
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: true,
    sourcemap: false,
    minify: true,
    keepNames: true,
    external,
  },
];

// UM_BUNDLE=cli builds only the `um` bundle (the test setup's rebuild when a source is newer than it)
export default defineConfig(process.env.UM_BUNDLE === 'cli' ? [configs[1]] : configs);
