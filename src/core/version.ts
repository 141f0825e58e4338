/** Replaced at build time with the package version (tsup/vitest `define`). */
declare const __WEBDATA_VERSION__: string | undefined;

/** This SDK's version, as built. Sent as `webdata/<version>` in `User-Agent` and `X-Client`. */
export const VERSION: string = typeof __WEBDATA_VERSION__ === "string" ? __WEBDATA_VERSION__ : "0.0.0-dev";
