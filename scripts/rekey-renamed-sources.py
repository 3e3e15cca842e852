#!/usr/bin/env python3
"""Moves recorded results' source keys across a pure rename of kernel files and identifiers.

A recording carries the key of the sources its kernel was compiled from
(cmake/MachineCodeScript.cmake, source_key). Renaming files and kernels changes every key, though
the machine code is the same. For each renamed kernel file this computes the key of the old
sources (from git, at BASE) and of the new ones (this checkout), both the way the build does, and
moves a recording from the old key to the new one only when the old build's PTX and this build's
are identical once the old names are replaced by the new ones (mangled names included). A file
whose PTX differs in anything else keeps its recordings on the old key: stale, as they should be.
Usage (from the new checkout's root, after building it):
  scripts/rekey-renamed-sources.py BASE OLD_PTX_DIRS NEW_PTX_DIRS OLD_CHECKOUT
BASE: the commit the old build was made from; OLD_PTX_DIRS, NEW_PTX_DIRS: comma-separated
<build>/lessons/CMakeFiles/lessons_catalog_ptx.dir/__/kernels and ..._ptx90a.dir/__/kernels of
the old and the new build; OLD_CHECKOUT: the folder the old build compiled (its .d files name it).
"""
import hashlib, json, re, subprocess, sys, os, glob
base, old_ptx_dirs, new_ptx_dirs, old_root = sys.argv[1:5]
old_ptx_dirs, new_ptx_dirs = old_ptx_dirs.split(','), new_ptx_dirs.split(',')
# The renames of issue 37, as data: kernel file -> file, identifier -> identifier.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rekey-renames-issue37.json')) as f:
    renames = json.load(f)
files, idents = renames['files'], renames['identifiers']

def deps_of(d_file, root):
    text = open(d_file).read().replace('\\\n', ' ')
    text = text.split(':', 1)[1]
    # Normalized: a header that includes "../x.h" is named kernels/tc/../x.h, which git cannot
    # show; kernels/x.h it can.
    rels = sorted({os.path.normpath(p)[len(root) + 1:] for p in text.split()
                   if os.path.normpath(p).startswith(root + '/')})
    return rels

def header(ptx):
    out = ''
    for what in ['// Compiler Build ID', '// Cuda compilation tools', '// Based on NVVM', r'\.target ']:
        m = re.search(what + r'[^\n]*', ptx)
        out += (m.group(0) if m else '') + '\n'
    return out

def key(ptx, rels, read):
    k = header(ptx)
    for r in rels:
        k += '== ' + r + '\n' + read(r)
    return hashlib.sha256(k.encode()).hexdigest()

def git_read(rel):
    return subprocess.check_output(['git', 'show', base + ':' + rel]).decode()

idents.update({'tc_warp_specialized_smem': 'tc_warp_specialization_smem',
               'tc_wgmma_tma_smem': 'tc_tma_smem'})

# The names nvcc gives an anonymous namespace and internal-linkage objects carry the file's name
# and a hash of the compilation: they change with the file's name, never with its code.
ANON = re.compile(r'\d+_(GLOBAL__N__|INTERNAL_)[0-9a-f]+_\d+_[A-Za-z0-9_]*?_cu_[0-9a-f]+(_\d+)?')

def anonymous(ptx):
    return ANON.sub('ANON', ptx)

def code(ptx):
    # Line information (-lineinfo, cmake/MachineCode.cmake): the ".file" table names the files
    # where they were built, ".loc" their lines, and a .debug_str section the functions' names
    # for them; none of it is machine code. Both builds' PTX are compared without it.
    ptx = re.sub(r'^[ \t]*\.(loc|file)\b[^\n]*\n', '', ptx, flags=re.M)
    return re.sub(r'^[ \t]*\.section[ \t]+\.debug_\w+[ \t]*\n[ \t]*\{.*?^[ \t]*\}[ \t]*\n?', '',
                  ptx, flags=re.M | re.S)

def normalize(ptx):
    ptx = code(ptx)
    for o, n in sorted(idents.items(), key=lambda kv: -len(kv[0])):
        ptx = ptx.replace(str(len(o)) + o, str(len(n)) + n)
        ptx = re.sub(r'\b' + re.escape(o) + r'\b', n, ptx)
    return anonymous(ptx)

# The renamed files, and the files kept under their names whose sources changed with the renames
# (a comment or a header naming a renamed kernel).
pairs = dict(files)
for d in new_ptx_dirs:
    for p in glob.glob(os.path.join(d, '**', '*.ptx'), recursive=True):
        rel = os.path.relpath(p, d)[:-4] + '.cu'
        # Every file under its own name too: a BASE after the renames holds the new names.
        if rel not in pairs:
            pairs[rel] = rel
moves, kept = {}, []
for old, new in pairs.items():
    if not old.endswith('.cu'):
        continue
    found = None
    for od, nd in zip(old_ptx_dirs, new_ptx_dirs):
        o = os.path.join(od, old[:-3] + '.ptx')
        n = os.path.join(nd, new[:-3] + '.ptx')
        if os.path.exists(o) and os.path.exists(n):
            found = (o, n)
    if not found:
        kept.append((old, 'no PTX in both builds'))
        continue
    o, n = found
    old_ptx, new_ptx = open(o).read(), open(n).read()
    try:
        old_key = key(old_ptx, deps_of(o + '.d', old_root), git_read)
    except subprocess.CalledProcessError:
        kept.append((old, 'the old build was not compiled from BASE'))
        continue
    new_key = key(new_ptx, deps_of(n + '.d', os.getcwd()), lambda r: open(r).read())
    if normalize(old_ptx) != anonymous(code(new_ptx)):
        kept.append((old, 'PTX differs beyond the names'))
        continue
    if old_key != new_key:
        moves[old_key] = (new_key, 'kernels/' + new)

changed = 0
for f in sorted(glob.glob('assets/reference/**/*.json', recursive=True)):
    s = open(f).read()
    t = s
    for o, (n, _) in moves.items():
        t = t.replace('"source_key": "%s"' % o, '"source_key": "%s"' % n)
    if t != s:
        c = sum(s.count('"source_key": "%s"' % o) for o in moves)
        print('%s: %d results moved to the renamed sources\' keys' % (f, c))
        changed += c
        open(f, 'w').write(t)
print('%d kernel files with new keys and the same PTX; %d results moved' % (len(moves), changed))
for old, why in kept:
    print('kept on the old key:', old, '-', why)
