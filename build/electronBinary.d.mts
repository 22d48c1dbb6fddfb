/** Types for build/electronBinary.mjs. */
export declare function findElectronBinary(
  root: string,
  env?: NodeJS.ProcessEnv,
): { path: string; reason?: undefined } | { path: null; reason: string };
