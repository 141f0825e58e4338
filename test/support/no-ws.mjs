// Loaded with `node --import`: the optional `ws` package cannot be found, as in an install without it
// (the `webdata fake` test of a machine without ws).
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
  if (specifier === "ws") throw Object.assign(new Error("Cannot find package 'ws' (hidden by test/support/no-ws.mjs)"), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}`),
);
