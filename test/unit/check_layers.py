#!/usr/bin/env python3
"""The engine's structure, checked (make check; doc/DESIGN.md, "Layers"):
1. each file calls only functions of files below it, never above;
2. each part of a peer's state (struct hxb_peer's members tx, cc, loss, ops,
   ack, rx, reasm) is written only by the module that owns it; others read
   it or call that module.
Prints every violation and fails if there is one."""
import os
import re
import sys

DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'uct_hxb')
# bottom up; files of one layer never call each other
LAYERS = [
    ['hxb_core.c'],
    ['hxb_cc.c'],
    ['hxb_tx.c'],
    ['hxb_loss.c'],
    ['hxb_ops.c'],
    ['hxb_ack.c'],
    ['hxb_am.c', 'hxb_rma.c', 'hxb_atomic.c'],
    ['hxb_rx.c'],
    ['hxb_peer_life.c'],
    ['hxb_engine.c'],
    ['hxb_inspect.c'],     # reads everything for hxb-stat and dumps
]
OWNER = {'tx': 'hxb_tx.c', 'cc': 'hxb_cc.c', 'loss': 'hxb_loss.c', 'ops': 'hxb_ops.c',
         'ack': 'hxb_ack.c', 'rx': 'hxb_rx.c', 'reasm': 'hxb_am.c'}


def code(path):
    """the file without comments and string literals, lines kept"""
    t = open(path).read()
    t = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), t, flags=re.S)
    return re.sub(r'"(\\.|[^"\\])*"', '""', t)


layer = {f: i for i, fs in enumerate(LAYERS) for f in fs}
src = {}
for f in layer:
    p = os.path.join(DIR, f)
    if not os.path.exists(p):
        sys.exit('check_layers: %s missing' % p)
    src[f] = code(p)
defined = {}
for f, t in src.items():
    for m in re.finditer(r'^(?!static)[a-z][^;{(]*?\b(hxb_\w+)\(', t, flags=re.M):
        defined[m.group(1)] = f
bad = []
for f, t in src.items():
    for n, line in enumerate(t.split('\n'), 1):
        for m in re.finditer(r'\b(hxb_\w+)\(', line):
            g = defined.get(m.group(1))
            if g and g != f and layer[g] >= layer[f]:
                bad.append('%s:%d: calls %s of %s, which is not below it' % (f, n, m.group(1), g))
        # writes: p->part.x = / += / ++ ... and p->part.x[..] = ...
        for m in re.finditer(r'(\+\+|--)?\s*\bp->(\w+)\.[\w.]*(\[[^\]]*\])?[\w.]*\s*'
                             r'(=(?!=)|\+=|-=|\|=|&=|\+\+|--)?', line):
            part = m.group(2)
            if part in OWNER and (m.group(1) or m.group(4)) and OWNER[part] != f:
                bad.append('%s:%d: writes p->%s, which %s owns' % (f, n, part, OWNER[part]))
for b in bad:
    print('check_layers: ' + b)
if not bad:
    print('check_layers: %d engine files call downward only and write only their own state'
          % len(layer))
sys.exit(1 if bad else 0)
