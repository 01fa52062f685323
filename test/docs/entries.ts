/** Public entry points whose exports must be documented and whose examples are run. */
export const ENTRIES: Record<string, string> = {
  'uncertainty-metrics': 'src/index.ts',
};
