#!/usr/bin/env python3
"""Regenerates the generated tables of docs/ that are made from files in the repository.

    python3 scripts/docs-tables.py

Today that is docs/pyverbs-mapping.md, made from conformance-tests/pyverbs/mapping.tsv. The
tables made from measurements (the targets table of docs/performance.md, written by
`./verbs4j perf --repeat 5`) and from a VM run (the by-kernel tables of
docs/kernel-findings.md, from conformance-kernels.md) are pasted in by hand with the stamp
line their generator printed. Every generated table starts with a stamp line,

    <!-- generated: WHAT at COMMIT on DATE; sources: PATH [PATH...] -->

which scripts/docs-check.py compares with the last commit that touched the sources.
"""
import datetime
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPPING = 'conformance-tests/pyverbs/mapping.tsv'


def head_commit():
    try:
        return subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


def stamp(what, sources):
    return '<!-- generated: %s at %s on %s; sources: %s -->' % (
        what, head_commit(), datetime.date.today().isoformat(), ' '.join(sources))


def cell(text):
    return text.replace('|', '\\|')


def pyverbs_mapping():
    rows, reasons = [], 0
    with open(os.path.join(ROOT, MAPPING), encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            test, _, target = line.partition('\t')
            if target.startswith('reason:'):
                reasons += 1
                rows.append('| `%s` | no counterpart: %s |' % (test, cell(target[len('reason:'):].strip())))
            else:
                cases = ', '.join('`%s`' % c.strip() for c in target.split(',') if c.strip())
                rows.append('| `%s` | %s |' % (test, cases))
    out = ['# rdma-core\'s tests and the suite\'s cases', '',
           'For whoever compares verbs4j with rdma-core\'s own tests: each pyverbs test that runs on the',
           'kernel\'s rxe, and the conformance cases that check the same behaviour, or why the Java API',
           'has no counterpart. How the VM run uses it: [conformance.md](conformance.md#rdma-cores-own-tests-as-the-reference).',
           'Regenerate with `python3 scripts/docs-tables.py` after changing `%s`.' % MAPPING, '',
           stamp('the pyverbs mapping, by python3 scripts/docs-tables.py', [MAPPING]),
           '%d pyverbs tests: %d mapped to cases, %d with a reason.' % (len(rows), len(rows) - reasons, reasons), '',
           '| pyverbs test | conformance cases |', '|---|---|'] + rows
    return '\n'.join(out) + '\n'


def main():
    path = os.path.join(ROOT, 'docs', 'pyverbs-mapping.md')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(pyverbs_mapping())
    print('wrote ' + os.path.relpath(path, ROOT))
    return 0


if __name__ == '__main__':
    sys.exit(main())
