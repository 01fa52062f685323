/**
 * The seed corpus of the API fuzz: every documentation example (`@example` in src/) is run once with the public
 * functions wrapped, and each call's arguments are recorded — valid calls of every public function, which the fuzz
 * then mutates. The examples are found with a plain scan of the sources (no type checker: that takes seconds).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clone } from './generate.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A recorded valid call: the arguments, copied before the call. */
export interface Seed {
  args: unknown[];
}

/** The fenced code of every `@example` in the sources. */
export function exampleBlocks(): { file: string; code: string }[] {
  const out: { file: string; code: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/@example\s*\n\s*\*\s*```(?:js|ts|javascript)?\n([\s\S]*?)\n\s*\*\s*```/g)) {
          const code = (m[1] as string)
            .split('\n')
            .map((l) => l.replace(/^\s*\* ?/, ''))
            .join('\n');
          out.push({ file: path.replace(root, ''), code });
        }
      }
    }
  };
  walk(join(root, 'src'));
  return out;
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<void>;

/**
 * Runs every example with the named modules' functions wrapped to record their arguments. `modules`: import
 * specifier → module (specifiers the examples import but that are not given make the example skipped).
 * Returns function name → recorded calls (at most `perFunction`).
 */
export async function recordSeeds(
  modules: Record<string, Record<string, unknown>>,
  perFunction = 12,
): Promise<{ seeds: Map<string, Seed[]>; failed: string[] }> {
  const seeds = new Map<string, Seed[]>();
  const failed: string[] = [];
  let recording = true;
  const wrap = (name: string, f: (...a: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]) {
      if (recording) {
        const list = seeds.get(name) ?? [];
        if (list.length < perFunction) list.push({ args: clone(args) });
        seeds.set(name, list);
      }
      return f.apply(this, args);
    };
  for (const { file, code } of exampleBlocks()) {
    const scope: Record<string, unknown> = {};
    const lines: string[] = [];
    let runnable = true;
    for (const line of code.split('\n')) {
      const imp = /^\s*import\s*\{([^}]*)\}\s*from\s*'([^']+)';?\s*$/.exec(line);
      if (imp === null) {
        lines.push(line);
        continue;
      }
      const mod = modules[imp[2] as string];
      if (mod === undefined) runnable = false;
      for (const n of (imp[1] as string)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const v = mod?.[n];
        // classes stay as they are (`new` on a wrapper would fail); functions are wrapped by their public name
        scope[n] =
          typeof v === 'function' && !/^class\b/.test(Function.prototype.toString.call(v)) && !/^[A-Z]/.test(n)
            ? wrap(n, v as (...a: unknown[]) => unknown)
            : v;
      }
    }
    if (!runnable) continue;
    try {
      await new AsyncFunction('__scope', `const { ${Object.keys(scope).join(', ')} } = __scope;\n${lines.join('\n')}`)(
        scope,
      );
    } catch (e) {
      failed.push(`${file}: ${String(e)}`);
    }
  }
  recording = false;
  return { seeds, failed };
}
