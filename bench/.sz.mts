import { appDir, bundle, CLIENT_APP } from "./bundles.ts";
const { dir, remove } = appDir();
const b = await bundle(dir, CLIENT_APP, { split: false });
console.log(b.gzipped);
console.log(b.inputs.filter(([f]) => f.startsWith("dist/")).slice(0, 40).map(([f, n]) => `${n} ${f}`).join("\n"));
remove();
