// `npm pack` / `npm publish` run this first: the package ships dist/, so a pack from a fresh clone
// builds it. A dist/ already newer than every source file is packed as it is (the test suite packs
// the package several times right after `npm run build`).
import { execSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), 0);
}

let built = 0;
try {
  built = statSync("dist/node/index.js").mtimeMs;
} catch {
  built = 0;
}
const sources = Math.max(newest("src"), newest("package.json"), newest("tsup.config.ts"));
if (built > 0 && built >= sources) {
  console.error("prepack: dist/ is newer than the sources; packing it as built");
} else {
  console.error(built ? "prepack: the sources changed since dist/ was built; building" : "prepack: no dist/ yet; building");
  execSync("npm run build", { stdio: "inherit" });
}
