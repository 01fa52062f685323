/** Public entry points whose exports must be documented and whose examples are run. */
export const ENTRIES: Record<string, string> = {
  'uncertainty-metrics': 'src/index.ts',
  'uncertainty-metrics/io': 'src/io/index.ts',
  'uncertainty-metrics/cli': 'src/cli/index.ts',
  'uncertainty-metrics/plot': 'src/plot/index.ts',
  'uncertainty-metrics/report': 'src/report/index.ts',
  'uncertainty-metrics/sql': 'src/sql/index.ts',
  'uncertainty-metrics/parallel': 'src/parallel/index.ts',
  'uncertainty-metrics/tfjs': 'src/tfjs/index.ts',
  'uncertainty-metrics/llm': 'src/llm/index.ts',
};
