import { defineConfig } from 'tsup';

// The CommonJS form of the core entry (`require('uncertainty-metrics')`), one bundled file with bundled types
// (index.d.cts) so that TypeScript's node16/CommonJS resolution finds CommonJS types. The ES modules in dist/ are
// tsc's; the other entry points are ES modules only (Node ≥ 20.19 requires them).
export default defineConfig({
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
  // keeps the package under 2.2 MB installed; names are kept so stack traces and error names stay readable
  minify: true,
  keepNames: true,
});
