// Lines, files and functions over 50 lines in src/ (TypeScript AST), for the review of the house (ARCHITECTURE.md).
//   node bench/house/functions.mjs [checkout dir] [-v]
import ts from "typescript";
import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
const root = process.argv[2] ?? ".";
const files = execSync("git ls-files 'src/*.ts' 'src/**/*.ts'", { cwd: root }).toString().trim().split("\n");
let lines = 0; const long = [];
for (const f of files) {
  const text = readFileSync(`${root}/${f}`, "utf8");
  lines += text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  const visit = (n) => {
    if (ts.isFunctionLike(n) && n.body) {
      const a = sf.getLineAndCharacterOfPosition(n.getStart()).line, b = sf.getLineAndCharacterOfPosition(n.end).line;
      if (b - a + 1 > 50) long.push(`${f}:${a + 1} ${b - a + 1} ${n.name?.getText?.() ?? "(anon)"}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
console.log(`files ${files.length}, lines ${lines}, functions over 50 lines ${long.length}`);
if (process.argv.includes("-v")) console.log(long.join("\n"));
