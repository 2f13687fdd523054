#!/usr/bin/env python3
"""Write a Mintlify-style docs site of N distinct English pages for scale benchmarks (issue 25).

Usage: scripts/make-scale-corpus.py N OUT_DIR   (standard library only; same N -> byte-identical output)

How it is made:
1. Real pages, from ../shared/data (skipped with a message when absent):
   - every section of the two real Mintlify sites (English `.mdx`/`.md` files; the es/fr/zh trees are
     left out), split at `## ` headings outside code fences, one page per section, code blocks kept;
     ESM `import`/`export` lines dropped (their snippets are not copied);
   - every GitHub (JSON) and Stripe (YAML, read by the small block-YAML reader below) operation:
     one page from its summary, description, parameters and request-body properties, plus a curl line;
   - every SciFact abstract; every section of the CoNaLa Python-docs pages (reStructuredText split at
     its underlined headings, literal blocks turned into fences, roles into code spans).
   Non-MDX text is escaped for MDX (`\\<`, `\\{`). Sections repeated word for word are kept once.
   The real pages are shuffled with a fixed seed and the first N kept.
2. Past the real pages, generated pages keep the vocabulary growing. Each one recombines real
   sentences of one source (drawn in proportion to the sources' real pages), real `## ` headings and real code blocks with derived terms: product/identifier names
   made from real morphemes (a prefix and a suffix of real words, three parts once the pairs run
   out, never a word the real text has), numbered API fields, version strings. Page n introduces
   as many new derived terms as it takes for the distinct-word count to reach V_R * (n / R)^0.6
   (R real pages holding V_R distinct words: Heaps' law, beta 0.6), and reuses earlier derived terms
   Zipf-like (early ones more often), so old terms keep recurring the way product names do.
Pages go to `OUT_DIR/<source>/<bucket>/<slug>-<n>.mdx` (`.md` for the sites' `.md` files; at most 1,000
files per directory), each with
`title:` and `description:` frontmatter; no docs.json (the indexer takes every page of a directory).
Prints pages written, real pages, bytes, the distinct lowercase words ([a-z0-9]+) at checkpoints and
the fitted Heaps exponent beta.
"""
import json, math, os, random, re, sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
SEED, BETA, PER_DIR = 20261125, 0.6, 1000
WORD = re.compile(r"[a-z0-9]+")
FENCE = re.compile(r"^\s*(```|~~~)")


def mdx_escape(text):
    """Escape `<`, `{`, `}` outside code spans and fences (MDX reads them as JSX or expressions); indent
    a prose line starting `import `/`export ` by a space (MDX reads it as an ESM block)."""
    out, in_fence = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            parts = re.split(r"(`[^`\n]*`)", line)
            line = "".join(p if i % 2 else re.sub(r"([<{}])", r"\\\1", p) for i, p in enumerate(parts))
            line = " " + line if line.startswith(("import ", "export ")) else line  # not an ESM block
        out.append(line)
    return "\n".join(out)


def first_sentence(text):
    for para in text.split("\n"):
        para = para.strip()
        if para and not para.startswith(("#", "```", "<", "|", "-", "*", "!", "import", ">")):
            s = re.split(r"(?<=[.!?])\s", para, 1)[0]
            return re.sub(r"[`*_\\\[\]]", "", s)[:200]
    return ""


def fence_split(text):
    """Split Markdown at `## ` headings outside code fences."""
    parts, cur, in_fence = [], [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            in_fence = not in_fence
        if line.startswith("## ") and not in_fence and cur:
            parts.append("\n".join(cur)), cur.clear()
        cur.append(line)
    parts.append("\n".join(cur))
    return parts


def mintlify_pages(site, skip_dirs):
    root = os.path.join(DATA, "sites", site)
    for dirpath, dirnames, files in os.walk(root):  # top-down, pruned and sorted in place
        dirnames[:] = sorted(d for d in dirnames if d not in skip_dirs and d != "node_modules")
        for fn in sorted(files):
            if not fn.endswith((".mdx", ".md")):
                continue
            text = open(os.path.join(dirpath, fn), encoding="utf-8", errors="replace").read()
            fm = re.match(r"^---\n(.*?)\n---\n", text, re.S)
            meta = dict(re.findall(r"^(title|description):\s*[\"']?(.*?)[\"']?\s*$", fm.group(1), re.M)) if fm else {}
            text = text[fm.end():] if fm else text
            text = re.sub(r"^(import|export) .*\n", "", text, flags=re.M)
            page_title = meta.get("title") or fn.rsplit(".", 1)[0].replace("-", " ").title()
            for part in fence_split(text):
                if len(part.strip()) < 80:
                    continue
                head = part.split("\n", 1)[0]
                title = page_title + (": " + head[3:].strip() if head.startswith("## ") else "")
                desc = meta.get("description") if not head.startswith("## ") else None
                yield (site, title, desc or first_sentence(part) or title, part.strip() + "\n",
                       "mdx" if fn.endswith(".mdx") else "md")


def yaml_scalars(lines):
    """A block-YAML reader for generated specs: yields (key path, scalar) with list items as `#n`."""
    stack, item, i = [], 0, 0
    while i < len(lines):
        line = lines[i]
        s = line.lstrip(" ")
        ind = len(line) - len(s)
        i += 1
        if not s or s.startswith("#"):
            continue
        while s.startswith("- "):
            while stack and stack[-1][0] >= ind:
                stack.pop()
            stack.append((ind, "#%d" % item))
            item, ind, s = item + 1, ind + 2, s[2:]
        m = re.match(r"('[^']*'|\"[^\"]*\"|[^:\s][^:]*?):(?: +(.*))?$", s)
        while stack and stack[-1][0] >= ind:
            stack.pop()
        if not m:
            yield tuple(k for _, k in stack), s
            continue
        key, val = m.group(1).strip("'\""), (m.group(2) or "").rstrip()
        path = tuple(k for _, k in stack) + (key,)
        if not val:
            stack.append((ind, key))
            continue
        body = []
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip(" ")) > ind):
            body.append(lines[i].strip())
            i += 1
        if val[0] == "|":
            val = "\n".join(body).strip()
        elif val[0] == ">":  # folded: lines joined by spaces, a blank line is a line break
            val = "\n".join(" ".join(g.split("\n")) for g in "\n".join(body).split("\n\n")).strip()
        else:
            val = " ".join([val] + [b for b in body if b])
            if val[:1] in "'\"" and val[-1:] == val[:1]:
                val = val[1:-1].replace("''", "'")
        yield path, val


def op_page(source, method, path, summary, desc, params, props, host):
    desc = re.sub(r"</?(p|code|a|strong|em|ul|li)\b[^>]*>", "", desc or "").strip()
    title = summary or f"{method.upper()} {path}"
    body = [f"`{method.upper()} {path}`", "", desc, ""]
    for head, items in (("Parameters", params), ("Request body", props)):
        if items:
            body += [f"## {head}", ""] + [f"- `{n}`: {' '.join(d.split())}".rstrip(": ") for n, d in items] + [""]
    body += ["## Example request", "", "```bash", f"curl -X {method.upper()} {host}{path}", "```", ""]
    return (source, title, first_sentence(desc) or title, mdx_escape("\n".join(body)), "mdx")


def github_pages():
    spec = json.load(open(os.path.join(DATA, "openapi", "github-rest.json")))
    comps = spec.get("components", {})
    def deref(o):
        while isinstance(o, dict) and "$ref" in o:
            kind, name = o["$ref"].split("/")[-2:]
            o = comps.get(kind, {}).get(name, {})
        return o
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if method not in ("get", "put", "post", "patch", "delete"):
                continue
            params = [(p.get("name", ""), p.get("description", "")) for p in map(deref, op.get("parameters", []))]
            schema = deref(deref(op.get("requestBody", {})).get("content", {}).get("application/json", {}).get("schema", {}))
            props = [(k, deref(v).get("description", "")) for k, v in schema.get("properties", {}).items()]
            yield op_page("github-api", method, path, op.get("summary"), op.get("description"), params, props,
                          "https://api.github.com")


def stripe_pages():
    lines = open(os.path.join(DATA, "openapi", "stripe-spec3.yaml"), encoding="utf-8").read().split("\n")
    start = lines.index("paths:")
    end = next((j for j in range(start + 1, len(lines)) if lines[j][:1].isalpha()), len(lines))
    ops = {}
    for path, val in yaml_scalars(lines[start:end]):
        if len(path) < 4 or path[2] not in ("get", "post", "delete"):
            continue
        op = ops.setdefault(path[1:3], {"params": {}, "props": []})
        rest = path[3:]
        if rest in (("description",), ("summary",)):
            op[rest[0]] = val
        elif len(rest) == 3 and rest[0] == "parameters" and rest[2] in ("name", "description"):
            op["params"].setdefault(rest[1], {})[rest[2]] = val
        elif len(rest) == 7 and rest[:2] == ("requestBody", "content") and rest[4] == "properties" and rest[6] == "description":
            op["props"].append((rest[5], val))
    for (path, method), op in ops.items():
        params = [(p.get("name", ""), p.get("description", "")) for p in op["params"].values()]
        yield op_page("stripe-api", method, path, op.get("summary"), op.get("description"), params, op["props"],
                      "https://api.stripe.com")


RST_UNDER = re.compile(r"^([=\-~^\"'`#*+.])\1{2,}\s*$")
RST_SIG = {"function", "class", "method", "attribute", "data", "exception", "decorator", "classmethod",
           "staticmethod", "opcode", "cmdoption", "envvar", "describe", "coroutinefunction", "coroutinemethod"}


def rst_inline(s):
    s = re.sub(r":[\w:.-]+:`~?([^`<]*?)\s*(<[^>]*>)?`", lambda m: "`" + (m.group(1) or (m.group(2) or "")[1:-1]) + "`", s)
    return re.sub(r"``([^`]+)``", r"`\1`", s)


def rst_to_md(text):
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        ln = lines[i]
        s, ind = ln.strip(), len(ln) - len(ln.lstrip())
        i += 1
        code = re.match(r"\.\. (code-block|sourcecode|code|doctest|testcode)::\s*(\S*)", s)
        directive = re.match(r"\.\. ([\w-]+(?::[\w-]+)?)::\s*(.*)", s) or re.match(r"\.\.(\s|$)", s)
        if code or (s.endswith("::") and not directive) or s.startswith(">>>"):
            lang = code.group(2) if code else ("pycon" if s.startswith(">>>") else "")
            if not code and not s.startswith(">>>") and s != "::":
                out.append(rst_inline(s[:-1].rstrip(" :") + ":"))
            body = [ln] if s.startswith(">>>") else []
            while i < len(lines) and (lines[i].strip() if s.startswith(">>>") else
                                      (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > ind)):
                body.append(lines[i])
                i += 1
            body = [b for b in body if not re.match(r"\s*:\w+:", b)]
            while body and not body[-1].strip():
                body.pop()
            while body and not body[0].strip():
                body.pop(0)
            cut = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
            if body:
                out += ["", "```" + lang] + [b[cut:].rstrip() for b in body] + ["```", ""]
        elif directive:
            name = directive.group(1) if directive.lastindex and directive.lastindex >= 2 else ""
            if name in RST_SIG or ":" in name:
                out += ["", "**`" + directive.group(2) + "`**", ""]
            elif name in ("note", "warning", "seealso", "versionadded", "versionchanged", "deprecated", "tip"):
                out.append(name.capitalize() + ": " + rst_inline(directive.group(2)))
            else:  # index entries, labels, comments, toctrees: skipped with their bodies
                while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > ind):
                    i += 1
        else:
            out.append(rst_inline(s))
    return mdx_escape(re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n")


def conala_pages():
    for line in open(os.path.join(DATA, "conala-pydocs", "docs.jsonl"), encoding="utf-8"):
        d = json.loads(line)
        lines = d["text"].split("\n")
        heads = [j for j in range(len(lines) - 1) if lines[j].strip() and not RST_UNDER.match(lines[j])
                 and RST_UNDER.match(lines[j + 1]) and len(lines[j + 1].strip()) >= len(lines[j].strip())]
        for k, h in enumerate(heads + [None]):
            lo = heads[k - 1] + 2 if k else 0
            hi = (h - 1 if h and h > 0 and RST_UNDER.match(lines[h - 1]) else h) if h is not None else len(lines)
            body = rst_to_md("\n".join(lines[lo:hi]))
            if len(body) < 200:
                continue
            page = rst_inline(d["title"])
            head = rst_inline(lines[heads[k - 1]].strip()) if k else page
            title = page if head in (page, d["title"]) else f"{page}: {head}"
            yield ("python", re.sub(r"[`*\\]", "", title), first_sentence(body) or title, body, "mdx")


def scifact_pages():
    for line in open(os.path.join(DATA, "scifact", "docs.jsonl"), encoding="utf-8"):
        d = json.loads(line)
        yield ("research", d["title"] or d["id"], first_sentence(d["text"]), mdx_escape(d["text"]) + "\n", "mdx")


def real_pages():
    sources = [("mintlify-docs site", lambda: mintlify_pages("mintlify-docs", {"es", "fr", "zh"})),
               ("pipecat-docs site", lambda: mintlify_pages("pipecat-docs", set())),
               ("GitHub spec", github_pages), ("Stripe spec", stripe_pages),
               ("SciFact", scifact_pages), ("CoNaLa pages", conala_pages)]
    pages = []
    for name, gen in sources:
        try:
            got = list(gen())
        except OSError as e:
            print(f"skipping {name}: {e}", file=sys.stderr)
            continue
        print(f"{name}: {len(got)} pages", file=sys.stderr)
        pages += got
    seen = set()  # distinct text: a section repeated word for word (shared snippets, boilerplate) once
    return [p for p in pages if not (p[3] in seen or seen.add(p[3]))]


def morphemes(vocab):
    words = sorted(w for w in vocab if w.isalpha() and 5 <= len(w) <= 10)
    pre = sorted({w[:4] for w in words[::3]} | {w[:3] for w in words[1::3]})
    suf = sorted({w[-4:] for w in words[::3]} | {w[-3:] for w in words[2::3]})
    return pre, suf


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(SEED)
    real = real_pages()
    rng.shuffle(real)
    real = real[:n]
    vocab, counts, total_bytes, dir_fill = set(), [], 0, {}
    sentences, headings, codes = {}, [], []  # sentences by source

    def write(source, title, desc, body, ext, idx):
        nonlocal total_bytes
        bucket = dir_fill.setdefault(source, [0])
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "page"
        rel = os.path.join(source, "p%03d" % (bucket[0] // PER_DIR), f"{slug}-{idx}.{ext}")
        bucket[0] += 1
        q = lambda s: '"' + re.sub(r"[\s\x00-\x1f\x7f-\x9f]+", " ", s).replace("\\", "\\\\").replace('"', '\\"').strip() + '"'
        text = f"---\ntitle: {q(title)}\ndescription: {q(desc or title)}\n---\n\n{body}"
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        total_bytes += len(text.encode("utf-8"))
        vocab.update(WORD.findall(text.lower()))
        counts.append(len(vocab))
        return rel

    example = None
    for i, (source, title, desc, body, ext) in enumerate(real):
        rel = write(source, title, desc, body, ext, i)
        example = example or (rel if source == "pipecat-docs" else None)
        in_fence = False
        for para in re.split(r"\n\s*\n", body):
            if FENCE.match(para) and para.rstrip().endswith(("```", "~~~")) and len(para) < 1500:
                codes.append(para.strip())
            elif para.startswith("## "):
                headings.append(para.split("\n")[0][3:].strip())
            elif not re.search(r"[<>{}|\[\]*#\\`]", para):
                sentences.setdefault(source, []).extend(s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", para.replace("\n", " "))
                              if 40 <= len(s) <= 300 and s[-1] in ".!?")
    n_real = len(real)
    if n > n_real:
        pools = {src: sorted(set(v)) for src, v in sorted(sentences.items())}
        page_sources = [src for src, *_ in real if src in pools]
        headings = sorted({h for h in headings if 3 <= len(h) <= 60 and not re.search(r"[<>{}`*\\\[\]]", h)})
        codes = sorted(set(codes))
        pre, suf = morphemes(vocab)
        rng.shuffle(pre), rng.shuffle(suf)
        v_r, derived, k = len(vocab), [], 0

        def fresh():
            nonlocal k
            while True:
                a, b = k % len(pre), k // len(pre)  # diagonals: consecutive names differ in both parts
                c = (a + b) % len(suf)
                name = pre[a] + (suf[c] if b < len(suf) else pre[b % len(pre)] + suf[(c + b // len(pre)) % len(suf)])
                k += 1
                if name not in vocab:
                    vocab.add(name)
                    return name

        def reuse():  # Zipf-like over the derived terms so far: early ones recur most
            return derived[int(len(derived) * rng.random() ** 3)] if derived else fresh()

        def para(m):
            return " ".join(rng.choice(pool) for _ in range(m))

        for i in range(n_real, n):
            need = max(1, round(v_r * ((i + 1) / n_real) ** BETA) - len(vocab))
            new = [fresh() for _ in range(need)]
            derived += new
            pool = pools[rng.choice(page_sources)]  # one source's sentences a page, weighted by its pages
            terms = new + [reuse() for _ in range(rng.randint(3, 8))]
            product, ver = terms[0].capitalize(), f"{rng.randint(1, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}"
            topic = rng.choice(headings)
            body = [f"{product} {ver}: {para(rng.randint(2, 4))}", "", para(rng.randint(1, 3)), ""]
            for j in range(rng.randint(1, 3)):
                body += [f"## {rng.choice(headings)}", "", para(rng.randint(1, 3)), ""]
                if j == 0:
                    body += [f"- `{t}_{rng.choice(('id', 'url', 'name', 'count', 'enabled'))}{rng.randint(1, 99)}`: "
                             f"{rng.choice(pool)}" for t in terms[:rng.randint(2, 6)]] + [""]
                if rng.random() < 0.4 and codes:
                    body += [rng.choice(codes), ""]
            body += ["```bash", f"curl https://api.{terms[0]}.dev/v{ver.split('.')[0]}/{terms[-1]} \\",
                     f'  -H "X-{product}-Version: {ver}"', "```", ""]
            write("products", f"{product} {topic}", rng.choice(pool), "\n".join(body), "mdx", i)
    print(f"pages written: {n}; from real text: {n_real}; generated: {n - n_real}; "
          f"bytes: {total_bytes}; directory: {out}")
    marks = [m for m in (1000, 3000, 10000, 30000, 100000, 300000, 1000000) if m <= n] + [n]
    for m in sorted(set(marks)):
        print(f"distinct lowercase words after {m} pages: {counts[m - 1]}")
    pts = [(math.log(m), math.log(counts[m - 1])) for m in range(max(100, n // 1000), n + 1, max(1, n // 200))]
    if len(pts) > 1:
        mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        beta = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
        print(f"Heaps fit V = K n^beta over pages {max(100, n // 1000)}..{n}: beta {beta:.3f}, "
              f"K {math.exp(my - beta * mx):.1f}")
    if example:
        print(f"example page for edit-churn: {example}")


if __name__ == "__main__":
    main()
