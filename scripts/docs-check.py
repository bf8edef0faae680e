#!/usr/bin/env python3
"""Checks README.md and docs/*.md against the tree, as the javadoc check does the code.

    python3 scripts/docs-check.py            # exit 1, with each problem, when one is found
    python3 scripts/docs-check.py --self-test

A document fails when it names something that no longer exists:
  (a) a relative link, or a backticked repository path (one whose first component is a
      top-level entry of the repository: `rxe-vm/run.sh`, `conformance-tests/findings/`),
      that names no file or folder; a link's #anchor that names no heading of its document.
      Build outputs (anything under a target/ folder) are not checked.
  (b) a long option of the verbs4j command, ConformanceMain, FuzzLauncher or test.sh (in a
      backticked span or a code block line that runs one of them), or a system property
      verbs4j.*, that appears in no source file (every file of the tree but Markdown);
  (c) a conformance case, family/Class#method: Class.java must be in conformance-tests/src
      and a plain method name must appear in it; an id no class holds (the VM's wire/...
      cases) must appear literally in a source file;
  (d) a generated table whose stamp,
          <!-- generated: WHAT at COMMIT on YYYY-MM-DD; sources: PATH [PATH...] -->
      names a commit older than the last commit that touched its sources, unless the stamp
      goes on with "; older than: COMMIT ..." (the table says so), where COMMIT is at or after
      that last change. Without git history this part is skipped, with the reason.
"""
import os
import re
import subprocess
import sys
import tempfile

TEXT_SUFFIXES = ('.java', '.sh', '.py', '.xml', '.tsv', '.txt', '.properties', '.c', '.h', '.cpp',
                 '.json', '.yml', '.yaml', '.cfg', '.conf', '.service', '')
SKIP_DIRS = {'.git', 'target', 'node_modules', '.idea'}
STAMP = re.compile(r'<!-- generated: (.*?) at ([0-9a-f]{7,40}) on (\d{4}-\d{2}-\d{2}); sources: (.*?)'
                   r'(?:; older than: (.*?))? -->')
SPAN = re.compile(r'`([^`\n]+)`')
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
CASE = re.compile(r'(?<![\w/.])([a-z][a-z0-9]*)/([A-Z][A-Za-z0-9]*)#([A-Za-z0-9_.{},*]*)')
PROPERTY = re.compile(r'(?:(?<=-D)|(?<![\w.$/-]))verbs4j\.[a-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*')
OPTION = re.compile(r'(?<![\w-])--[a-z][a-z0-9_-]*')
RUNS = re.compile(r'(?:^|[\s/(])(?:verbs4j\s+[a-z-]+|ConformanceMain|FuzzLauncher|test\.sh)\b')
FILE_SUFFIXES = {'jar', 'md', 'html', 'json', 'jsonl', 'so', 'sh', 'py', 'tsv', 'txt'}


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def strip_fences(text):
    """The text outside fenced code blocks (kept line for line), and the lines inside them."""
    outside, inside, fenced = [], [], False
    for line in text.split('\n'):
        if line.lstrip().startswith('```'):
            fenced = not fenced
            outside.append('')
            continue
        (inside if fenced else outside).append(line)
        if fenced:
            outside.append('')
    return '\n'.join(outside), inside


class Checker:
    def __init__(self, root):
        self.root = root
        self.problems = []
        self.notes = []
        self._corpus = None
        self._classes = None
        self.top = set(os.listdir(root))

    # -- what the tree holds
    def corpus(self):
        if self._corpus is None:
            parts = []
            for d, dirs, files in os.walk(self.root):
                dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
                for f in files:
                    if f.endswith('.md') or not f.endswith(TEXT_SUFFIXES) and '.' in f:
                        continue
                    p = os.path.join(d, f)
                    try:
                        if os.path.getsize(p) > 2_000_000:
                            continue
                        with open(p, encoding='utf-8', errors='replace') as fh:
                            parts.append(fh.read())
                    except OSError:
                        pass
            self._corpus = '\n'.join(parts)
        return self._corpus

    def classes(self):
        if self._classes is None:
            self._classes = {}
            base = os.path.join(self.root, 'conformance-tests', 'src')
            for d, dirs, files in os.walk(base):
                for f in files:
                    if f.endswith('.java'):
                        self._classes.setdefault(f[:-5], []).append(os.path.join(d, f))
        return self._classes

    def fail(self, doc, what):
        self.problems.append('%s: %s' % (doc, what))

    # -- (a) paths and links
    def check_path(self, doc, path, relative_to):
        if '/target/' in '/' + path or any(c in path for c in '*?{}<>$'):
            return
        full = os.path.normpath(os.path.join(relative_to, path))
        if not os.path.exists(full):
            self.fail(doc, 'names %s, which does not exist' % path)

    def check_links(self, doc, text, path):
        here = os.path.dirname(path)
        for target in LINK.findall(text):
            if re.match(r'^[a-z]+:', target):
                continue
            file_part, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(here, file_part)) if file_part else path
            if file_part:
                self.check_path(doc, file_part, here)
            if anchor and dest.endswith('.md') and os.path.isfile(dest):
                with open(dest, encoding='utf-8') as fh:
                    slugs = {slug(m) for m in re.findall(r'^#+ (.*)$', fh.read(), re.M)}
                if anchor not in slugs:
                    self.fail(doc, 'links to #%s in %s, a heading it does not have' % (anchor, file_part or doc))

    def check_spans(self, doc, spans):
        for span in spans:
            first = span.split()[0] if span.split() else ''
            first = first.lstrip('./') if first.startswith('./') else first
            if '/' in first and first.split('/')[0] in self.top and re.match(r'^[\w.+-]+(/[\w.+-]*)+$', first):
                self.check_path(doc, first, self.root)

    # -- (b) options and properties
    def check_names(self, doc, spans, code_lines, text):
        corpus = self.corpus()
        for piece in list(spans) + list(code_lines):
            if not RUNS.search(piece):
                continue
            for option in OPTION.findall(piece):
                if ('"%s' % option) not in corpus and ('%s)' % option) not in corpus and ('%s=' % option) not in corpus \
                        and ("'%s" % option) not in corpus and ('%s|' % option) not in corpus:
                    self.fail(doc, 'names the option %s, which no source file takes' % option)
        for prop in set(PROPERTY.findall(text)):
            if prop.rsplit('.', 1)[-1] in FILE_SUFFIXES:
                continue
            if prop not in corpus:
                self.fail(doc, 'names the property %s, which no source file reads' % prop)

    # -- (c) cases
    def check_cases(self, doc, text):
        classes = self.classes()
        corpus = None
        for family, cls, method in set(CASE.findall(text)):
            case = '%s/%s#%s' % (family, cls, method)
            if cls in classes:
                files = [f for f in classes[cls] if ('/%s/' % family) in f] or classes[cls]
                if re.fullmatch(r'[A-Za-z_]\w*', method):
                    body = ''.join(open(f, encoding='utf-8').read() for f in files)
                    if not re.search(r'\b%s\b' % re.escape(method), body):
                        self.fail(doc, 'names the case %s, whose method %s has no %s' % (case, cls, method))
                continue
            corpus = corpus or self.corpus()
            if case.rstrip('#') not in corpus:
                self.fail(doc, 'names the case %s: no class %s in conformance-tests/src and no source names it' % (case, cls))

    # -- (d) generated tables
    def git(self, *args):
        return subprocess.run(['git', '-C', self.root] + list(args), capture_output=True, text=True)

    def check_stamps(self, doc, text):
        stamps = STAMP.findall(text)
        if text.count('<!-- generated:') != len(stamps):
            self.fail(doc, 'has a "generated" stamp this check cannot read (see scripts/docs-check.py)')
        if not stamps:
            return
        has_git = os.path.isdir(os.path.join(self.root, '.git')) or os.path.isfile(os.path.join(self.root, '.git'))
        for what, commit, date, sources, older in stamps:
            sources = sources.split()
            for s in sources:
                self.check_path(doc, s, self.root)
            if not has_git or self.git('rev-parse', '--git-dir').returncode != 0:
                self.notes.append('%s: %s: freshness not checked (no git history here)' % (doc, what))
                continue
            full = self.git('rev-parse', '--verify', '--quiet', commit + '^{commit}')
            if full.returncode != 0:
                self.fail(doc, '%s: stamped with commit %s, which this history does not have' % (what, commit))
                continue
            last = self.git('log', '-1', '--no-merges', '--format=%H', '--', *sources).stdout.strip()
            if older:
                # "older than: COMMIT ...": it holds while COMMIT is at or after the last change
                # of the sources, so a later change fails again until the table is looked at.
                older = older.split()[0].rstrip(',;.')
                named = self.git('rev-parse', '--verify', '--quiet', older + '^{commit}')
                if named.returncode != 0:
                    self.fail(doc, '%s: says it is older than %s, which this history does not have' % (what, older))
                elif last and self.git('merge-base', '--is-ancestor', last, named.stdout.strip()).returncode != 0:
                    self.fail(doc, '%s: says it is older than %s, but %s changed its sources since: regenerate it, '
                              'or name %s there' % (what, older, last[:7], last[:7]))
                else:
                    self.notes.append('%s: %s: made at %s, says it is older than %s' % (doc, what, commit, older))
                continue
            if last and self.git('merge-base', '--is-ancestor', last, full.stdout.strip()).returncode != 0:
                self.fail(doc, '%s: made at %s, but %s changed its sources (%s) since: regenerate it, or say '
                          '"; older than: %s" in its stamp' % (what, commit, last[:7], ' '.join(sources), last[:7]))

    def run(self):
        docs = ['README.md'] + sorted('docs/' + f for f in os.listdir(os.path.join(self.root, 'docs'))
                                      if f.endswith('.md')) if os.path.isdir(os.path.join(self.root, 'docs')) else ['README.md']
        for doc in docs:
            path = os.path.join(self.root, doc)
            with open(path, encoding='utf-8') as fh:
                text = fh.read()
            outside, code_lines = strip_fences(text)
            spans = SPAN.findall(outside)
            self.check_links(doc, outside, path)
            self.check_spans(doc, spans)
            self.check_names(doc, spans, code_lines, text)
            self.check_cases(doc, text)
            self.check_stamps(doc, text)
        return docs


def self_test():
    """A tiny repository with a source, a stamped table and links: fresh passes, stale fails."""
    def sh(cwd, *cmd):
        subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)

    def problems(root):
        c = Checker(root)
        c.run()
        return c.problems

    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs'))
        os.makedirs(os.path.join(root, 'src'))
        os.makedirs(os.path.join(root, 'conformance-tests/src/base'))
        with open(os.path.join(root, 'src/Gen.java'), 'w') as f:
            f.write('class Gen { String p = "verbs4j.soft.real"; String o = "--real"; }\n')
        with open(os.path.join(root, 'conformance-tests/src/base/SomeTest.java'), 'w') as f:
            f.write('class SomeTest { void realCase() {} }\n')
        sh(root, 'git', 'init', '-q')
        sh(root, 'git', '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.')
        sh(root, 'git', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one')
        first = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=root, capture_output=True,
                               text=True).stdout.strip()

        def write(readme, doc):
            with open(os.path.join(root, 'README.md'), 'w') as f:
                f.write(readme)
            with open(os.path.join(root, 'docs/t.md'), 'w') as f:
                f.write(doc)

        good_doc = ('# T\n\n## A part\n\n<!-- generated: a table at %s on 2026-01-01; sources: src -->\n'
                    '| x |\n|---|\n\n`src/Gen.java`, `-Dverbs4j.soft.real`, `verbs4j demo --real`, '
                    '`base/SomeTest#realCase`\n' % first)
        write('[t](docs/t.md#a-part)\n', good_doc)
        assert problems(root) == [], problems(root)
        for readme, doc, expect in [
            ('[t](docs/gone.md)\n', good_doc, 'gone.md'),
            ('[t](docs/t.md#no-part)\n', good_doc, '#no-part'),
            ('x\n', good_doc + '`src/Gone.java`\n', 'src/Gone.java'),
            ('x\n', good_doc + '`verbs4j perf --gone`\n', '--gone'),
            ('x\n', good_doc + '`-Dverbs4j.soft.gone=1`\n', 'verbs4j.soft.gone'),
            ('x\n', good_doc + '`base/SomeTest#goneCase`\n', 'goneCase'),
            ('x\n', good_doc + '`base/GoneTest#realCase`\n', 'GoneTest'),
        ]:
            write(readme, doc)
            found = problems(root)
            assert len(found) == 1 and expect in found[0], (expect, found)
        write('x\n', good_doc)
        with open(os.path.join(root, 'src/Gen.java'), 'a') as f:
            f.write('// changed\n')
        sh(root, 'git', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'two')
        found = problems(root)
        assert len(found) == 1 and 'changed its sources' in found[0], found
        write('x\n', good_doc.replace('sources: src -->', 'sources: src; older than: HEAD, on purpose -->'))
        assert problems(root) == [], problems(root)
        write('x\n', good_doc.replace('sources: src -->', 'sources: src; older than: %s, before the change -->' % first))
        found = problems(root)
        assert len(found) == 1 and 'changed its sources since' in found[0], found
    print('docs-check self-test: passed')
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if argv[1:]:
        print(__doc__.split('\n\n')[0], file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    checker = Checker(root)
    docs = checker.run()
    for note in checker.notes:
        print('  ' + note)
    for problem in checker.problems:
        print('FAILED: ' + problem)
    print('docs: %d documents, %d problem(s)' % (len(docs), len(checker.problems)))
    return 1 if checker.problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
