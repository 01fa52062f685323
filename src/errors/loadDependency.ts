import { UMError } from './UMError.js';

/**
 * Loads an optional dependency (internal): the core installs none, so the parts that need a large package (Vega for
 * rendering, DuckDB for SQL) import it when first used. A package that is not installed is a `UM_DEPENDENCY` error
 * naming the function, the package and the command that installs it, instead of the runtime's module error.
 *
 * @param fn the public function that needs the package (named in the message).
 * @param pkg the package's name, as `import()` is given it.
 * @param load the dynamic import (written at the call site, so bundlers see the specifier).
 * @param install what to install (default: the package itself).
 */
export async function loadDependency<T>(
  fn: string,
  pkg: string,
  load: () => Promise<T>,
  install: string = pkg,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, pkg))
      throw new UMError(
        'UM_DEPENDENCY',
        `${fn}: needs the package '${pkg}', which is not installed (npm install ${install})`,
        { fn, argument: pkg },
      );
    throw error;
  }
}

/** Whether `error` says that `pkg` itself (not something it imports) cannot be found. */
function isMissing(error: unknown, pkg: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.message !== 'string') return false;
  const notFound =
    e.code === 'ERR_MODULE_NOT_FOUND' ||
    e.code === 'MODULE_NOT_FOUND' ||
    /Cannot find (package|module)/.test(e.message);
  return notFound && (e.message.includes(`'${pkg}'`) || e.message.includes(`"${pkg}"`));
}
