/** Conformance of proper scores, ensemble uncertainty, information criteria and bin-free estimators. */
import { runMappings } from './mappings/run.js';
import { SCORE_MAPPINGS } from './mappings/scores.js';

runMappings('conformance: scores, ensembles, information criteria, bin-free calibration estimators', SCORE_MAPPINGS);
