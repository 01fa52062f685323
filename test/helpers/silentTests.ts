/**
 * Passing tests print nothing: whatever a test writes through `console` fails that test (after it ran), with the
 * lines it printed. A test that checks what code prints replaces `console.log` itself (or passes an `io`), so nothing
 * reaches here. The one line TensorFlow.js prints once per process in Node (advertising its native backend) is let
 * through to vitest's filter (vitest.config.ts).
 */
import { afterEach } from 'vitest';

const METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;
const printed: string[] = [];
const TFJS_NOTICE = 'looks like you are running TensorFlow.js in Node.js';

// installed once per worker (isolate: false): a second install would wrap the first
const installed = Symbol.for('uncertainty-metrics.silentTests');
const registry = globalThis as unknown as Record<symbol, boolean>;
if (registry[installed] !== true) {
  registry[installed] = true;
  for (const method of METHODS) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const text = args.map(String).join(' ');
      if (text.includes(TFJS_NOTICE)) original(...args);
      else printed.push(`console.${method}: ${text}`);
    };
  }
}

afterEach(() => {
  if (printed.length === 0) return;
  const lines = printed.splice(0);
  throw new Error(`the test printed (passing tests print nothing):\n${lines.join('\n')}`);
});
