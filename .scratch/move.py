import os, re, sys, subprocess
ROOT = "/work/main"
def split_imports(text):
    lines = text.split("\n")
    # header doc comment
    i = 0
    doc = []
    if lines and lines[0].startswith("/**"):
        while not lines[i].rstrip().endswith("*/"):
            doc.append(lines[i]); i += 1
        doc.append(lines[i]); i += 1
    imports = []
    body_start = i
    j = i
    while j < len(lines):
        l = lines[j]
        if l.startswith("import "):
            stmt = [l]
            while not re.search(r'from "[^"]+";\s*$|^import "[^"]+";\s*$', stmt[-1]):
                j += 1; stmt.append(lines[j])
            imports.append("\n".join(stmt)); j += 1; body_start = j
        elif l.strip() == "" or l.startswith("//"):
            j += 1
            if not imports: body_start = j
        else:
            break
    return doc, imports, "\n".join(lines[body_start:])

def move(src, dst):
    s = open(f"{ROOT}/src/{src}").read()
    d = open(f"{ROOT}/src/{dst}").read()
    sdoc, simp, sbody = split_imports(s)
    ddoc, dimp, dbody = split_imports(d)
    srcdir, dstdir = os.path.dirname(src), os.path.dirname(dst)
    def respec(imp, fromdir):
        m = re.search(r'from "([^"]+)"', imp)
        if not m or not m.group(1).startswith("."): return imp
        target = os.path.normpath(os.path.join(fromdir, m.group(1)))
        rel = os.path.relpath(target, dstdir or ".")
        if not rel.startswith("."): rel = "./" + rel
        return imp.replace(m.group(0), f'from "{rel}"')
    dst_base = os.path.splitext(dst)[0] + ".js"
    src_base = os.path.splitext(src)[0] + ".js"
    def targets(imp, fromdir):
        m = re.search(r'from "([^"]+)"', imp)
        if not m or not m.group(1).startswith("."): return None
        return os.path.normpath(os.path.join(fromdir or ".", m.group(1)))
    newimp = [i for i in dimp if targets(i, dstdir) != src_base]
    for i in simp:
        if targets(i, srcdir) == dst_base: continue
        r = respec(i, srcdir)
        if r not in newimp: newimp.append(r)
    section = "\n".join(sdoc).replace("/**", "/*", 1) if sdoc else ""
    out = "\n".join(ddoc) + ("\n" if ddoc else "") + "\n".join(newimp) + "\n" + dbody.rstrip("\n") + "\n\n" + section + ("\n" if section else "") + sbody.lstrip("\n")
    open(f"{ROOT}/src/{dst}", "w").write(out)
    subprocess.check_call(["git", "rm", "-q", f"src/{src}"], cwd=ROOT)
    # rewrite specifiers everywhere
    files = subprocess.check_output("git ls-files 'src/*.ts' 'test/*.ts' 'test/**/*.ts' 'bench/*.ts' 'bench/**/*.ts' 'bench/*.mts' 'examples/*.ts' 'examples/**/*.ts' 'test/*.mjs' 'bench/*.mjs'", shell=True, cwd=ROOT).decode().split()
    for f in set(files):
        p = f"{ROOT}/{f}"
        if not os.path.exists(p): continue
        t = open(p).read()
        fdir = os.path.dirname(f)
        def fix(m):
            spec = m.group(2)
            if not spec.startswith("."): return m.group(0)
            target = os.path.normpath(os.path.join(fdir, spec))
            if target == "src/" + src_base:
                rel = os.path.relpath("src/" + dst_base, fdir)
                if not rel.startswith("."): rel = "./" + rel
                return m.group(1) + rel + m.group(3)
            return m.group(0)
        t2 = re.sub(r'((?:from |import\(|import )")([^"]+)(")', fix, t)
        # a file that now imports itself: drop those lines
        if f == "src/" + dst:
            t2 = re.sub(r'^import [^;]*from "\./' + os.path.basename(dst_base) + r'";\n', '', t2, flags=re.M)
        if t2 != t: open(p, "w").write(t2)

if __name__ == "__main__":
    move(sys.argv[1], sys.argv[2])
