#!/usr/bin/env python3
"""Fails when app/'s folders include each other in a circle.

Reads every quoted #include of app/ (its headers are included by folder, "worker/controller.h"),
draws an arrow from a file's folder to the included file's folder (a file directly in app/ is
a room of its own, with its header: probe.h, automation.{h,cpp}), and looks for a cycle among the folders. Prints each circle with the
includes that make it, and exits 1 when there is one.

Usage: scripts/check-app-circles.py [APP_DIR]   (default: app/ beside this script's folder)
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(app, path):
    """A folder of app/, or for a file directly in app/ its own room ("probe": probe.h)."""
    rel = os.path.relpath(path, app)
    return rel.split(os.sep)[0] if os.sep in rel else os.path.splitext(rel)[0]


def arrows(app):
    """{(from, to): [file:line includes ...]} between different folders."""
    folders = {d for d in os.listdir(app) if os.path.isdir(os.path.join(app, d))}
    out = {}
    for root, _, files in os.walk(app):
        for name in files:
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(root, name)
            here = folder_of(app, path)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                target = m.group(1)
                first = target.split("/")[0]
                if "/" in target and first in folders:
                    there = first
                elif "/" not in target and os.path.exists(os.path.join(app, target)):
                    there = os.path.splitext(target)[0]
                elif "/" not in target and os.path.exists(os.path.join(root, target)):
                    there = here
                else:
                    continue  # the engine's, the catalogue's, a library's
                if there != here:
                    line = text.count("\n", 0, m.start()) + 1
                    where = f"{os.path.relpath(path, os.path.dirname(app))}:{line}"
                    out.setdefault((here, there), []).append(f"{where} includes {target}")
    return out


def circles(edges):
    """Every strongly connected group of more than one folder (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    app = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "app")
    app = os.path.normpath(app)
    edges = arrows(app)
    groups = circles(edges)
    for group in groups:
        print("circle between app/ folders: " + " <-> ".join(group))
        for (a, b), where in sorted(edges.items()):
            if a in group and b in group:
                print(f"  {a} -> {b}:")
                for w in where:
                    print(f"    {w}")
    if groups:
        return 1
    print(f"no circle between app/ folders ({len(edges)} arrows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
