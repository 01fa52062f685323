import { parseCalibrator, type CalibratorParams } from '../calibrate/parseCalibrator.js';
import { UMError } from '../errors/UMError.js';
import { fail } from '../errors/fail.js';
import { fileFail, readWhole } from './fileError.js';
import { decodeUtf8 } from './textInput.js';

/**
 * Reads a calibrator file written by `um calibrate fit` (or `JSON.stringify` of a fitted calibrator) and validates it.
 *
 * **Formula.** Not applicable (input/output).
 *
 * **Conventions.**
 * - The file is UTF-8 JSON (a leading BOM is dropped) in a regular file; its content is checked by
 *   {@link parseCalibrator}. Every problem is a `UMError` that names the
 *   file: `UM_FILE_NOT_FOUND`/`UM_FILE_READ`, `UM_FILE_FORMAT` for invalid JSON, `UM_CALIBRATOR` for a bad field.
 *
 * **References.** None.
 *
 * @param path the calibrator file.
 * @returns the validated calibrator parameters.
 * @throws {UMError} as above.
 * @example
 * ```js
 * import { readCalibrator } from 'uncertainty-metrics/io';
 * (await readCalibrator('test/fixtures/files/temperature.json')).kind; // => 'temperature'
 * ```
 */
export async function readCalibrator(path: string): Promise<CalibratorParams> {
  const fn = 'readCalibrator';
  // checked before any use: an object as path reached fs and the message ("[object Object]: cannot be read")
  if (typeof path !== 'string' || path === '') fail('UM_OPTION', fn, 'path', 'be a non-empty string', { value: path });
  const text = decodeUtf8(fn, path, await readWhole(fn, path));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  try {
    return parseCalibrator(value as object);
  } catch (error) {
    if (!(error instanceof UMError)) throw error;
    throw new UMError(error.code, `${fn}: ${path}: ${error.message.replace(/^parseCalibrator: /, '')}`, {
      ...error.details,
      fn,
      file: path,
    });
  }
}
