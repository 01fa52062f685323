import { describe, expect, it } from 'vitest';
import { UMError } from '../../src/errors/UMError.js';
import { loadDependency } from '../../src/errors/loadDependency.js';

describe('loadDependency', () => {
  it('turns a package that is not installed into UM_DEPENDENCY naming the function, package and install command', async () => {
    const missing = 'uncertainty-metrics-no-such-package';
    const e = await loadDependency('renderSvg', missing, () => import(missing), `${missing} vega-lite`).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(UMError);
    expect((e as UMError).code).toBe('UM_DEPENDENCY');
    expect((e as UMError).message).toBe(
      `renderSvg: needs the package '${missing}', which is not installed (npm install ${missing} vega-lite)`,
    );
  });

  it('loads an installed package', async () => {
    const m = await loadDependency('renderSvg', 'vega-lite', () => import('vega-lite'));
    expect(typeof m.compile).toBe('function');
  });

  it('passes on any other failure, including a package missing inside the one asked for', async () => {
    const inner = Object.assign(new Error("Cannot find package 'left-pad' imported from /x/vega/index.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadDependency('renderSvg', 'vega', () => Promise.reject(inner))).rejects.toBe(inner);
    const broken = new SyntaxError('Unexpected token');
    await expect(loadDependency('renderSvg', 'vega', () => Promise.reject(broken))).rejects.toBe(broken);
  });
});
