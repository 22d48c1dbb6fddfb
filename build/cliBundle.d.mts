/** Types for build/cliBundle.mjs, so TypeScript tests and benches can drive the real build. */
export interface CliManifest {
  bundle: string;
  builtAt: number;
  inputs: [string, number, number][];
}
export declare const ROOT: string;
export declare const CLI_DIR: string;
export declare function buildCliBundle(): Promise<CliManifest>;
