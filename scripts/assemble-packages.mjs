// After the build: makes the `um` entry executable (tsc does not keep file modes) and copies the licence, the
// changelog and the README into each published package (npm packs only a package's own directory).
import { chmodSync, copyFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
chmodSync(new URL('packages/core/dist/cli/bin.js', root), 0o755);
for (const pkg of ['core', 'cli']) {
  for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md'])
    copyFileSync(new URL(file, root), new URL(`packages/${pkg}/${file}`, root));
}
