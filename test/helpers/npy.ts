import { readPredictions, type PredictionData } from '../../src/io/index.js';
import { repoRoot } from './cli.js';

/** One of the bundled MNIST logits files with its split's labels. */
export function bundled(name: string, split: 'val' | 'test'): Promise<PredictionData> {
  return readPredictions(`${repoRoot}examples/data/${name}.npy`, {
    labels: `${repoRoot}examples/data/${split}_labels.npy`,
    input: 'logits',
  });
}
