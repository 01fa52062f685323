// After the build: compacts the core's ES modules, makes the `um` entry executable (tsc does not keep file modes) and
// copies the licence, the changelog and the README into each published package (npm packs only a package's own
// directory).
import { chmodSync, copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';

const root = new URL('../', import.meta.url);
const dist = new URL('packages/core/dist/', root);
// tsc's output without its indentation and line breaks (names, modules and statements kept, so stack traces still
// name every function): 1.01 → 0.75 MB, which keeps the core under 2 MB installed with its documented declarations.
// The CommonJS bundle (cjs/) is minified by tsup already.
for (const file of readdirSync(dist, { recursive: true }).map(String)) {
  if (!file.endsWith('.js') || file.startsWith('cjs')) continue;
  const path = new URL(file, dist);
  const code = readFileSync(path, 'utf8');
  writeFileSync(path, transformSync(code, { minifyWhitespace: true, loader: 'js', target: 'node20' }).code);
}
chmodSync(new URL('packages/core/dist/cli/bin.js', root), 0o755);
for (const pkg of ['core', 'cli']) {
  for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md'])
    copyFileSync(new URL(file, root), new URL(`packages/${pkg}/${file}`, root));
}
