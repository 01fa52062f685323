/**
 * Conformance of every binned calibration metric and preset against the peers' golden values
 * (test/fixtures/conformance). Each mapping says which of our calls computes the same quantity as a golden metric;
 * the test walks every case the peer covered.
 */
import { CALIBRATION_MAPPINGS } from './mappings/calibration.js';
import { runMappings } from './mappings/run.js';

runMappings('conformance: binned calibration metrics and presets', CALIBRATION_MAPPINGS);
