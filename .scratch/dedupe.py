import re, sys, os
def dedupe(path):
    s = open(path).read()
    base = "./" + os.path.basename(path).replace(".ts", ".js")
    # drop self re-exports
    s = re.sub(r'^export (type )?\{[^}]*\} from "' + re.escape(base) + r'";\n', '', s, flags=re.M)
    s = re.sub(r'^export \* from "' + re.escape(base) + r'";\n', '', s, flags=re.M)
    pat = re.compile(r'^import (type )?\{([^}]*)\} from "([^"]+)";\n', re.M)
    seen = {}
    order = []
    for m in pat.finditer(s):
        typ, names, spec = m.group(1), m.group(2), m.group(3)
        for n in [x.strip() for x in names.replace("\n", " ").split(",") if x.strip()]:
            is_type = bool(typ) or n.startswith("type ")
            name = n[5:].strip() if n.startswith("type ") else n
            d = seen.setdefault(spec, {})
            if spec not in order: order.append(spec)
            d[name] = d.get(name, True) and is_type
    # only rewrite specs with more than one import statement
    counts = {}
    for m in pat.finditer(s): counts[m.group(3)] = counts.get(m.group(3), 0) + 1
    dup = {k for k, v in counts.items() if v > 1}
    if not dup: open(path, "w").write(s); return
    first = {}
    def repl(m):
        spec = m.group(3)
        if spec not in dup: return m.group(0)
        if spec in first: return ""
        first[spec] = True
        items = sorted(seen[spec].items(), key=lambda kv: kv[0].lower())
        if all(t for _, t in items):
            return "import type { " + ", ".join(n for n, _ in items) + ' } from "' + spec + '";\n'
        return "import { " + ", ".join(("type " + n) if t else n for n, t in items) + ' } from "' + spec + '";\n'
    s = pat.sub(repl, s)
    open(path, "w").write(s)
for p in sys.argv[1:]: dedupe(p)
