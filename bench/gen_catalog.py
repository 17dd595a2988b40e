#!/usr/bin/env python3
"""Writes a catalog folder TIMES times the size of catalog/, for the catalog-size benchmark.

    bench/gen_catalog.py --times 10 [--graph-times 2] --out DIR

The copy keeps every real row (so the fixtures lint as before) and adds synthetic ones
of the same shapes: code-hosting endpoint rows under `/synthetic-N/...` paths (the
reference's rows with permissions of their own, and the host's tables' rows), advertising
node types with operations whose param tables copy the real tables' params, and copies of
the whole Marketing API graph (node types `<node>_sN` with their fields, calls on edges
`<edge>_sN` and params). The host's tables and the graph, the largest, are multiplied by
GRAPH_TIMES (doubled by default: ten copies of them would make the benchmark's build
several minutes longer). Deterministic: the same input gives the same output.
"""
import argparse
import pathlib
import re
import shutil


def scale_codehost(folder: pathlib.Path, times: int) -> None:
    path = folder / "codehost" / "permissions.tsv"
    lines = path.read_text().splitlines()
    rows = [l for l in lines if l.startswith("endpoint\t")]
    extra = []
    for k in range(1, times):
        for row in rows:
            kind, scope, title, method, template, access = row.split("\t")
            extra.append("\t".join([kind, scope, f"{title} {k}", method, f"/synthetic-{k}{template}", access]))
    path.write_text("\n".join(lines + extra) + "\n")


def scale_advertising(folder: pathlib.Path, times: int) -> None:
    nodes = folder / "advertising" / "nodes.tsv"
    ops = folder / "advertising" / "operations.tsv"
    params = folder / "advertising" / "params.yaml"
    node_rows = [l for l in nodes.read_text().splitlines() if l and not l.startswith("#") and not l.startswith("node\t")]
    op_rows = [l for l in ops.read_text().splitlines() if l and not l.startswith("#") and not l.startswith("operation\t")]
    text = params.read_text()
    # The endpoints: block, table by table (two-space keys up to the next top-level key).
    start = text.index("\nendpoints:\n") + len("\nendpoints:\n")
    end = re.search(r"\n[a-z_]+:", text[start:]).start() + start
    tables = re.split(r"(?m)^(?=  [a-z_]+:\n)", text[start:end])
    tables = [t for t in tables if t.strip()]
    new_nodes, new_ops, new_tables = [], [], []
    for k in range(1, times):
        for row in node_rows:
            node, title, context = row.split("\t")
            new_nodes.append(f"{node}_s{k}\t{title} {k}\t{context}")
        for row in op_rows:
            name, node, verb, method, path = row.split("\t")
            if path.startswith("/act_{account}/") or path.startswith("/{id}/"):
                path = f"{path}_s{k}"
            new_ops.append(f"{name}_s{k}\t{node}_s{k}\t{verb}\t{method}\t{path}")
        for table in tables:
            renamed = re.sub(r"^  ([a-z_]+):", lambda m: f"  {m.group(1)}_s{k}:", table, count=1)
            renamed = re.sub(r"(same_as|create|like): ([a-z_]+)", lambda m: f"{m.group(1)}: {m.group(2)}_s{k}", renamed)
            new_tables.append(renamed)
    nodes.write_text(nodes.read_text() + "\n".join(new_nodes) + "\n")
    ops.write_text(ops.read_text() + "\n".join(new_ops) + "\n")
    block = text[start:end].rstrip("\n") + "\n\n" + "\n".join(t.rstrip("\n") + "\n" for t in new_tables)
    params.write_text(text[:start] + block + text[end:])


def scale_host_tables(folder: pathlib.Path, times: int) -> None:
    path = folder / "codehost" / "endpoints.tsv"
    lines = path.read_text().splitlines()
    head = [l for l in lines if l.startswith("#") or l.startswith("version\t") or not l.strip()]
    rows = [l for l in lines if l not in head]
    extra = []
    for k in range(1, times):
        for row in rows:
            cells = row.split("\t")
            cells[5] = f"/synthetic-{k}{cells[5]}"
            extra.append("\t".join(cells))
    path.write_text("\n".join(lines + extra) + "\n")


def scale_graph(folder: pathlib.Path, times: int) -> None:
    """Copies of every node type, with their fields, calls and params, as `<node>_sN`.

    A copy's types name the copy's nodes and its edges are renamed, so that no real
    path reaches a copy and the fixtures' verdicts stay the same.
    """
    graph = folder / "advertising" / "graph"

    def split(name: str):
        lines = (graph / name).read_text().splitlines()
        head, rows = [], []
        for line in lines:
            if not line.strip() or line.startswith("#") or line.startswith("node\t"):
                head.append(line)
            else:
                rows.append(line.split("\t"))
        return head, rows

    def retype(ty: str, k: int) -> str:
        return re.sub(r"node:([a-z0-9_]+)", lambda m: f"node:{m.group(1)}_s{k}", ty)

    def edge(e: str, k: int) -> str:
        return e if e == "-" else f"{e}_s{k}"

    # (file, the columns that name a node, an edge, a type; the sort key of its rows)
    tables = {
        "nodes.tsv": (lambda r, k: [f"{r[0]}_s{k}", f"{r[1]}S{k}"], lambda r: r[0]),
        "calls.tsv": (
            lambda r, k: [f"{r[0]}_s{k}", r[1], edge(r[2], k), retype(r[3], k)],
            lambda r: (r[0], r[1], "" if r[2] == "-" else r[2]),
        ),
        "params.tsv": (
            lambda r, k: [f"{r[0]}_s{k}", r[1], edge(r[2], k), r[3], r[4], retype(r[5], k)],
            None,
        ),
        "fields.tsv": (lambda r, k: [f"{r[0]}_s{k}", r[1], retype(r[2], k)], None),
    }
    for name, (copy, key) in tables.items():
        head, rows = split(name)
        rows = rows + [copy(r, k) for k in range(1, times) for r in rows]
        if key is not None:
            rows.sort(key=key)
        (graph / name).write_text("\n".join(head + ["\t".join(r) for r in rows]) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=10)
    parser.add_argument("--graph-times", type=int, default=2)
    parser.add_argument("--out", required=True)
    parser.add_argument("--catalog", default=str(pathlib.Path(__file__).resolve().parent.parent / "catalog"))
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(args.catalog, out)
    scale_codehost(out, args.times)
    scale_host_tables(out, args.graph_times)
    scale_advertising(out, args.times)
    scale_graph(out, args.graph_times)


if __name__ == "__main__":
    main()
