/**
 * Checked code examples: a line `expr; // => value` asserts that expr equals value (numbers within 1e-12 relative);
 * `expr; // ≈ value` asserts equality to the precision the value is written with. Shared by the API examples
 * (examples.test.ts) and the guides (guides.test.ts).
 */

/** Decimal places a numeric literal is written with (1.25 → 2, 3 → 0, 1.5e-7 → 8). */
export function decimals(literal: string): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([-+]?\d+))?$/i.exec(literal);
  if (m === null) return 12;
  return (m[1]?.length ?? 0) - Number(m[2] ?? 0);
}

/** A number written in an `≈` example, compared to the precision it is written with. */
export class Approx {
  constructor(
    readonly value: number,
    readonly decimals: number,
  ) {}
}

export function close(actual: unknown, expected: unknown, tol: (e: number) => number): boolean {
  if (expected instanceof Approx) {
    return typeof actual === 'number' && Math.abs(actual - expected.value) <= 0.5 * 10 ** -expected.decimals + 1e-15;
  }
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return false;
    if (Number.isNaN(expected)) return Number.isNaN(actual);
    if (!Number.isFinite(expected)) return actual === expected;
    return Math.abs(actual - expected) <= tol(expected);
  }
  if (Array.isArray(expected)) {
    const a = ArrayBuffer.isView(actual) ? Array.from(actual as unknown as ArrayLike<number>) : actual;
    return Array.isArray(a) && a.length === expected.length && expected.every((e, i) => close(a[i], e, tol));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    const ka = Object.keys(actual as object);
    const ke = Object.keys(expected as object);
    return (
      ka.length === ke.length &&
      ke.every((k) => close((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], tol))
    );
  }
  return Object.is(actual, expected);
}

/** Turns an example into an async function body with checks. */
export function compileExample(code: string): { body: string; checks: number; imports: Map<string, string[]> } {
  const imports = new Map<string, string[]>();
  const lines: string[] = [];
  let checks = 0;
  for (const raw of code.split('\n')) {
    const imp = /^\s*import\s*\{([^}]*)\}\s*from\s*'([^']+)';?\s*$/.exec(raw);
    if (imp !== null) {
      const names = (imp[1] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      imports.set(imp[2] as string, [...(imports.get(imp[2] as string) ?? []), ...names]);
      continue;
    }
    const chk = /^(.*?);?\s*\/\/\s*(=>|≈)\s*(.+)$/.exec(raw);
    if (chk !== null) {
      const [, expr, op, value] = chk as unknown as [string, string, string, string];
      lines.push(`await __check(${expr.trim()}, ${JSON.stringify(value.trim())}, ${JSON.stringify(op)});`);
      checks++;
    } else lines.push(raw);
  }
  return { body: lines.join('\n'), checks, imports };
}

/** The modules an example may import, loaded from the sources (what the examples document). */
export const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  'uncertainty-metrics': () => import('../../src/index.js'),
  'uncertainty-metrics/io': () => import('../../src/io/index.js'),
  'uncertainty-metrics/cli': () => import('../../src/cli/index.js'),
  'uncertainty-metrics/plot': () => import('../../src/plot/index.js'),
  'uncertainty-metrics/report': () => import('../../src/report/index.js'),
  'uncertainty-metrics/sql': () => import('../../src/sql/index.js'),
  // workers start from the built JavaScript (dist/parallel/rowStatsWorker.js), so this entry runs from dist
  'uncertainty-metrics/parallel': () => import('../../packages/core/dist/parallel/index.js'),
  'uncertainty-metrics/tfjs': () => import('../../src/tfjs/index.js'),
  'uncertainty-metrics/llm': () => import('../../src/llm/index.js'),
  '@tensorflow/tfjs': () => import('@tensorflow/tfjs'),
};

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<void>;

/**
 * Runs an example: its imports (named, or `* as x`) are loaded from MODULES, `// =>` and `// ≈` lines are checked.
 * `transpile` strips TypeScript syntax first (the guides are TypeScript; the API examples are JavaScript).
 */
export async function runExample(
  code: string,
  transpile: (body: string) => string = (b) => b,
): Promise<{ checks: number; failures: string[] }> {
  const namespaces = new Map<string, string>();
  const plain = code.replace(
    /^\s*import\s*\*\s*as\s+(\w+)\s+from\s*'([^']+)';?\s*$/gm,
    (_m, name: string, spec: string) => {
      namespaces.set(name, spec);
      return '';
    },
  );
  const { body, checks, imports } = compileExample(plain);
  const scope: Record<string, unknown> = {};
  for (const [spec, names] of imports) {
    const load = MODULES[spec];
    if (load === undefined) throw new Error(`example imports unknown module ${spec}`);
    const mod = await load();
    for (const n of names) {
      if (!(n in mod)) throw new Error(`${spec} has no export ${n}`);
      scope[n] = mod[n];
    }
  }
  for (const [name, spec] of namespaces) {
    const load = MODULES[spec];
    if (load === undefined) throw new Error(`example imports unknown module ${spec}`);
    scope[name] = await load();
  }
  const failures: string[] = [];
  const check = async (actualOrPromise: unknown, expectedText: string, op: string) => {
    const actual = await actualOrPromise;
    // in `≈` mode every numeric literal carries its own precision (its number of decimals)
    const text =
      op === '≈'
        ? expectedText.replace(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi, (m) => `__approx(${m}, ${decimals(m)})`)
        : expectedText;
    const expected: unknown = new Function('__approx', `return (${text});`)(
      (v: number, dec: number) => new Approx(v, dec),
    );
    const tol = (x: number) => 1e-12 * Math.max(1, Math.abs(x));
    if (!close(actual, expected, tol))
      failures.push(
        `expected ${expectedText}, got ${JSON.stringify(ArrayBuffer.isView(actual) ? Array.from(actual as unknown as ArrayLike<number>) : actual)}`,
      );
  };
  const fn = new AsyncFunction(
    '__scope',
    '__check',
    `const { ${Object.keys(scope).join(', ')} } = __scope;\n${transpile(body)}`,
  );
  await fn(scope, check);
  return { checks, failures };
}
