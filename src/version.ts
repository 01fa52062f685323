/** The library's version, recorded in fitted calibrators (kept equal to package.json by a test). */
export const VERSION = '0.1.0';
