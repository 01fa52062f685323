/** Conformance of selective prediction: AUROC and AUPR against sklearn (1.2, 1.9) and torchmetrics. */
import { runMappings } from './mappings/run.js';
import { SELECTIVE_MAPPINGS } from './mappings/selective.js';

runMappings('conformance: selective prediction', SELECTIVE_MAPPINGS);
