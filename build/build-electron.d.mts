/** Types for build/build-electron.mjs, so TypeScript tests can drive the real build. */
export declare const ROOT: string;
export declare const OUT: string;
export declare function findViteConfig(): string | null;
export declare function rendererOutDir(configFile?: string | null): Promise<string>;
export declare function buildRenderer(configFile?: string | null): Promise<string>;
export declare function buildElectron(opts?: {
  rendererDir?: string;
  production?: boolean;
  outDir?: string;
}): Promise<{ main: string; preload: string; rendererDir: string }>;
