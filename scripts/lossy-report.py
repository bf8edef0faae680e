#!/usr/bin/env python3
"""The results of scripts/vm-guest-lossy.sh: the verdict, the results table, docs/lossy-link.md.

    python3 scripts/lossy-report.py judge DIR VERDICT RESULTS   # in the guest, after the runs
    python3 scripts/lossy-report.py doc [RESULTS]               # on the host: rewrites the table
                                                                # of docs/lossy-link.md from
                                                                # target/vm/lossy-full-results.tsv

judge reads DIR/runs.tsv (one line per pairing: condition, test, pairing, server status, client
status, log prefix), the logs and the hw_counters snapshots beside them, and writes RESULTS (one
line per pairing: condition, test, pairing, pass|fail, Gb/s, soft counters, kernel counters,
detail) and VERDICT (what passed and failed, each soft pairing's goodput against the kernel's
own, the RC families' run); exit status 1 when something failed or is missing.
"""
import datetime
import importlib.util
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, 'docs', 'lossy-link.md')
FULL_RESULTS = os.path.join(ROOT, 'target', 'vm', 'lossy-full-results.tsv')
STAMP_SOURCES = 'java-provider/src/main/java/dev/verbs4j/softroce/engine scripts/vm-guest-lossy.sh scripts/lossy-report.py'
END_MARK = '<!-- end of the generated table -->'
SOFT_LINE = re.compile(r'^soft counters \(([^,]+), (\d+) queue pairs?\):(.*)$')
# The kernel counters that say what the transport did (the packet and message counts say how much).
KERNEL_SHOWN = ('rcvd_seq_err', 'completer_retry_err', 'retry_exceeded_err', 'rcvd_rnr_err', 'send_rnr_err',
                'retry_rnr_exceeded_err', 'duplicate_request', 'out_of_seq_request', 'ack_deferred')
CONDITIONS = {'delay1ms': '1 ms', 'loss0.1': '1 ms, 0.1 % loss', 'loss1': '1 ms, 1 % loss', 'loss5': '1 ms, 5 % loss',
              'reorder': '1 ms, 25 % reordered', 'duplicate': '1 ms, 1 % duplicated'}
PAIRINGS = {'rxe-client-soft-server': 'rxe0 -> soft', 'soft-client-rxe-server': 'soft -> rxe0',
            'rxe-client-rxe1-server': 'rxe0 -> rxe1'}
REFERENCE = 'rxe-client-rxe1-server'
GOAL = 0.8


def lines(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read().splitlines()
    except OSError:
        return []


def counters_file(path):
    values = {}
    for line in lines(path):
        name, _, value = line.partition('=')
        if value.strip().isdigit():
            values[name] = int(value)
    return values


def kernel_deltas(prefix):
    """Each kernel counter's growth over the pairing, by device.name."""
    before, after = counters_file(prefix + '.kernel-before'), counters_file(prefix + '.kernel-after')
    return {key: after[key] - before.get(key, 0) for key in after}


def kernel_delta(prefix):
    shown = []
    for key, delta in sorted(kernel_deltas(prefix).items()):
        device, _, name = key.partition('.')
        if name in KERNEL_SHOWN and delta:
            shown.append('%s %s %d' % (device, name, delta))
    return ', '.join(shown)


def soft_counters(prefix):
    sums, found = {}, False
    for side in ('server', 'client'):
        for line in lines('%s-%s.log' % (prefix, side)):
            m = SOFT_LINE.match(line.strip())
            if m:
                found = True
                for name, value in re.findall(r'(\w+)=(\d+)', m.group(3)):
                    sums[name] = sums.get(name, 0) + int(value)
    if not found:
        return ''
    shown = ['%s %d' % (k, v) for k, v in sums.items() if v]
    return ', '.join(shown) or 'all 0'


def goodput(test, prefix):
    """Gb/s from the client's log: perftest's average column, or ibv_rc_pingpong's Mbit/sec line."""
    for line in lines(prefix + '-client.log'):
        if test == 'rc_pingpong':
            m = re.search(r'bytes in [0-9.]+ seconds = ([0-9.]+) Mbit/sec', line)
            if m:
                return float(m.group(1)) / 1000
        else:
            f = line.split()
            if len(f) >= 4 and f[0].isdigit() and re.fullmatch(r'[0-9.]+', f[3]):
                return float(f[3])
    return None


def check(test, pairing, prefix, server_rc, client_rc):
    """'' when the pairing passed, else why not."""
    server, client = lines(prefix + '-server.log'), lines(prefix + '-client.log')
    if server_rc != '0' or client_rc != '0':
        tail = (client[-1:] or server[-1:] or ['no output'])[0]
        return 'exit status server %s, client %s: %s' % (server_rc, client_rc, tail)
    if test == 'rc_pingpong':
        if any('invalid data' in line for line in server + client):
            return 'a side received data other than what was sent'
        soft = {'rxe-client-soft-server': server, 'soft-client-rxe-server': client}.get(pairing)
        if soft is not None and not any('every byte as sent' in line for line in soft):
            return 'the soft side did not confirm every byte'
        for side, log in (('server', server), ('client', client)):
            if not any('usec/iter' in line for line in log):
                return 'the %s printed no result' % side
    if goodput(test, prefix) is None:
        return 'no goodput in the client log'
    return ''


def rxe_retried_forever(test, pairing, prefix, server_rc, client_rc):
    """Whether the side on rxe0 waited out the pairing after its peer had finished: rxe treats a
    retry count of 7 (what ibv_rc_pingpong and perftest set) as infinite (rxe_comp.c counts
    down only below 7), so when the link loses the ACK of its last message and the peer has
    gone, it resends for ever instead of ending in RETRY_EXC_ERR. Either rxe0 serves a soft
    client, or it is the kernel reference's client, whose server (rxe1) got every message and
    exited while the ACK of the client's last one was lost. Told by the peer's full result, the
    rxe0 side's timeout and the peer's status 0, rxe0's completer retries and no
    retry_exceeded_err."""
    shapes = {'soft-client-rxe-server': (server_rc, client_rc, 'client'),
              'rxe-client-rxe1-server': (client_rc, server_rc, 'server')}
    if pairing not in shapes or shapes[pairing][:2] != ('124', '0'):
        return False
    peer = shapes[pairing][2]
    log = lines('%s-%s.log' % (prefix, peer))
    if test == 'rc_pingpong' and not any('usec/iter' in line for line in log):
        return False
    if peer == 'client' and goodput(test, prefix) is None:
        return False
    deltas = kernel_deltas(prefix)
    return deltas.get('rxe0.completer_retry_err', 0) > 0 and deltas.get('rxe0.retry_exceeded_err', 0) == 0


def soft_server_outlived_client(test, pairing, prefix, server_rc, client_rc):
    """Whether the soft server's last SEND ended in RETRY_EXC_ERR after the client had received
    every message and gone: ibv_rc_pingpong's client exits as soon as its last receive and send
    complete, so when the ACK of the server's last pong does not come back (lost on the link, or
    not sent before the client's queue pair went away), the server resends to a queue pair that
    no longer exists until its retry count of 7 runs out, as IBTA has it. Told by the client's
    full result, its status 0, no data found wrong on either side, and the server's one failed
    completion, its SEND (wr_id 2)."""
    if test != 'rc_pingpong' or pairing != 'rxe-client-soft-server' or client_rc != '0' or server_rc == '0':
        return False
    return last_send_retried_out(prefix, finished='client', failing='server')


def soft_client_outlived_server(test, pairing, prefix, server_rc, client_rc):
    """The mirror of soft_server_outlived_client: the soft client's last SEND ended in
    RETRY_EXC_ERR after the rxe0 server had received every message, had its own acknowledged,
    and exited. The server's full result says both: it counts an iteration when its receive and
    its SEND complete, and a SEND completes only once acknowledged. Only the ACK of the client's
    last ping is missing (lost on the link, or not sent again once the server's queue pair went
    away), and the client resends until its retry count of 7 runs out, as IBTA has it. Told by
    the server's full result, its status 0, no data found wrong on either side, and the client's
    one failed completion, its SEND (wr_id 2)."""
    if test != 'rc_pingpong' or pairing != 'soft-client-rxe-server' or server_rc != '0' or client_rc == '0':
        return False
    return last_send_retried_out(prefix, finished='server', failing='client')


def last_send_retried_out(prefix, finished, failing):
    """Whether side finished of an ibv_rc_pingpong pairing printed its full result, neither side
    found data wrong, and side failing had one failed completion: its SEND (wr_id 2), in
    RETRY_EXC_ERR."""
    logs = {side: lines('%s-%s.log' % (prefix, side)) for side in ('client', 'server')}
    if not any(' iters in ' in line and 'usec/iter' in line for line in logs[finished]):
        return False
    if any('invalid data' in line for line in logs['client'] + logs['server']):
        return False
    failed = [line for line in logs[failing] if line.startswith('Failed status')]
    return len(failed) == 1 and 'RETRY_EXC_ERR' in failed[0] and failed[0].endswith('for wr_id 2')


def judge(directory, verdict_path, results_path):
    runs = [l.split('\t') for l in lines(os.path.join(directory, 'runs.tsv')) if l.strip()]
    verdict, results, failures = [], [], 0
    figures = {}
    for cond, test, pairing, server_rc, client_rc, prefix in runs:
        problem = check(test, pairing, prefix, server_rc, client_rc)
        gbps = goodput(test, prefix)
        soft, kernel = soft_counters(prefix), kernel_delta(prefix)
        if problem and rxe_retried_forever(test, pairing, prefix, server_rc, client_rc):
            verdict.append('note  %s %s %s: the peer finished, rxe0 resent its last message for ever (its retry '
                           'count of 7 never runs out, a kernel finding) after the link lost its ACK and the peer had gone: %s'
                           % (cond, test, pairing, problem))
            problem = ''
        if problem and soft_server_outlived_client(test, pairing, prefix, server_rc, client_rc):
            verdict.append('note  %s %s %s: the client received every message and exited; the ACK of the soft '
                           "server's last pong did not come back, and the soft side resent it until its retry count "
                           'ran out (RETRY_EXC_ERR, as IBTA has it): %s' % (cond, test, pairing, problem))
            problem = ''
        if problem and soft_client_outlived_server(test, pairing, prefix, server_rc, client_rc):
            verdict.append('note  %s %s %s: the server received every message, had its own acknowledged and '
                           "exited; the ACK of the soft client's last ping did not come back, and the soft side "
                           'resent it until its retry count ran out (RETRY_EXC_ERR, as IBTA has it): %s'
                           % (cond, test, pairing, problem))
            problem = ''
        outcome = 'fail' if problem else 'pass'
        failures += bool(problem)
        figures[(cond, test, pairing)] = gbps if not problem else None
        results.append('\t'.join([cond, test, pairing, outcome, '%.4f' % gbps if gbps is not None else '',
                                  soft, kernel, problem]))
        verdict.append('%s  %s %s %s: %s Gb/s%s%s%s' % (
            outcome, cond, test, pairing, '%.4f' % gbps if gbps is not None else 'no', '; soft: ' + soft if soft else '',
            '; kernel: ' + kernel if kernel else '', '; ' + problem if problem else ''))
    conditions = [l.split('|')[0] for l in lines(os.path.join(directory, 'conditions.txt'))]
    if not runs:
        verdict.append('fail  no pairing ran (%s)' % os.path.join(directory, 'runs.tsv'))
        failures += 1
    # Each soft pairing's goodput against the kernel's own at the same condition (a goal, not a check:
    # the guest's emulated CPUs make one run's figure vary).
    for cond in conditions:
        tests = sorted({t for c, t, _ in figures if c == cond})
        for test in tests:
            ref = figures.get((cond, test, REFERENCE))
            if (cond, test, REFERENCE) not in figures:
                verdict.append('note  %s %s: no kernel reference ran (see %s)' % (cond, test, os.path.join(directory, 'rxe1.log')))
                continue
            for pairing in ('rxe-client-soft-server', 'soft-client-rxe-server'):
                value = figures.get((cond, test, pairing))
                if value is None or not ref:
                    continue
                share = value / ref
                verdict.append('%s  %s %s %s: %.4f Gb/s, %.0f %% of the kernel against itself (%.4f Gb/s)' % (
                    'goal' if share >= GOAL else 'below', cond, test, pairing, value, 100 * share, ref))
    rc_path = os.path.join(directory, 'rc-families.rc')
    if os.path.exists(rc_path) or 'lossy-full' not in directory:
        failures += judge_rc_families(directory, verdict)
    verdict.append('lossy link: %d pairings, %d failed' % (len(runs), failures))
    with open(results_path, 'w', encoding='utf-8') as f:
        f.write('# condition\ttest\tpairing\toutcome\tGb/s\tsoft counters\tkernel counters\tdetail\n')
        f.write('# kernel %s, %s\n' % (' '.join(lines(os.path.join(directory, 'kernel.txt'))),
                                     datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')))
        for c in conditions:
            f.write('# condition %s\n' % c)
        for l in lines(os.path.join(directory, 'conditions.txt')):
            f.write('# netem %s\n' % l)
        f.write('\n'.join(results) + '\n')
    with open(verdict_path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(verdict) + '\n')
    return 1 if failures else 0


# Outcomes a lossy link may give a case that a perfect one does not, each with why; the verdict
# lets them through and counts them. Every other failure fails the step.
LOSS_OUTCOMES = (
    # A responder that refuses a request sends one NAK and moves its queue pair to the error
    # state, where it answers nothing more (IBTA chapter 9, RC responder errors). When the
    # link loses that NAK the requester resends into silence and ends with RETRY_EXC_ERR: the
    # protocol's outcome, not a defect of either side.
    (re.compile(r'expected: <REM_(ACCESS|INV_REQ|OP)_ERR> but was: <RETRY_EXC_ERR>'),
     'fatal NAK lost on the link, the requester retried into the error state'),
    # rxe's defect (docs/kernel-findings.md): it keeps rkey 0 for a zero-length READ, and drops
    # a repeat of that READ whose rkey differs, so a zero-length READ whose response was lost
    # is never answered again.
    (re.compile(r'base/RdmaReadTest#zeroLengthReadCompletes: .*expected: <SUCCESS> but was: <RETRY_EXC_ERR>'),
     'rxe dropped the repeat of a zero-length READ whose response was lost (kernel finding)'),
    # rxe's defect (docs/kernel-findings.md, kernel/patches/0006): it records no PSN for a
    # FLUSH's responder resource, so the repeat of a FLUSH whose response was lost finds none
    # and is dropped; the requester, whose FLUSH was carried out, retries until it fails.
    (re.compile(r'status=RETRY_EXC_ERR, opcode=FLUSH, .*expected: <SUCCESS> but was: <RETRY_EXC_ERR>'),
     'rxe dropped the repeat of a FLUSH whose response was lost (kernel finding)'),
)


def judge_rc_families(directory, verdict):
    """The suite's RC families at 1 % loss, judged as vm-evaluate.py judges the soft-to-rxe column."""
    report_path = os.path.join(directory, 'soft-to-rxe-lossy.json')
    rc = (lines(os.path.join(directory, 'rc-families.rc')) or ['missing'])[0].strip()
    try:
        with open(report_path, encoding='utf-8') as f:
            report = json.load(f)
    except (OSError, ValueError):
        verdict.append('fail  RC families at 1 %% loss: no report (status %s; log %s)' % (
            rc, os.path.join(directory, 'rc-families.log')))
        return 1
    spec = importlib.util.spec_from_file_location('vm_evaluate', os.path.join(ROOT, 'scripts', 'vm-evaluate.py'))
    evaluate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(evaluate)
    judged = []
    passed, skipped, findings, _ = evaluate.judge_column(report, evaluate.finding_lists(), judged)
    problems, of_loss = [], 0
    for p in judged:
        why = next((why for pattern, why in LOSS_OUTCOMES if pattern.search(p)), None)
        if why:
            of_loss += 1
            verdict.append('note  %s: %s' % (why, p))
        else:
            problems.append(p)
            verdict.append('fail  ' + p)
    verdict.append('%s  RC families at 1 %% loss (soft -> rxe0): %d passed, %d findings, %d skipped, %d outcomes of loss, %d failed' % (
        'fail' if problems or passed == 0 else 'pass', passed, findings, skipped, of_loss, len(problems)))
    return 1 if problems or passed == 0 else 0


def head_commit():
    r = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True)
    return r.stdout.strip() or 'unknown'


def table(results_path):
    rows, kernel, when = [], '', ''
    figures = {}
    for line in lines(results_path):
        if line.startswith('# kernel '):
            kernel, _, when = line[len('# kernel '):].partition(', ')
        if not line.strip() or line.startswith('#'):
            continue
        f = (line.split('\t') + [''] * 8)[:8]
        rows.append(f)
        if f[3] == 'pass' and f[4]:
            figures[(f[0], f[1], f[2])] = float(f[4])
    out = ['<!-- generated: the lossy-link table by scripts/lossy-report.py at %s on %s; sources: %s -->' % (
        head_commit(), datetime.date.today().isoformat(), STAMP_SOURCES), '',
        'Kernel %s, measured %s, `bash scripts/vm-guest-lossy.sh --full` in the micro-VM (TCG).' % (kernel, when), '',
        '| link | test | pairing (requester -> responder) | Gb/s | of rxe0 -> rxe1 | soft counters | kernel counters |',
        '|---|---|---|---:|---:|---|---|']
    conditions = list(CONDITIONS)
    tests = ['rc_pingpong', 'write_bw', 'send_bw', 'read_bw']
    pairings = list(PAIRINGS)

    def order(row):
        return tuple(keys.index(value) if value in keys else len(keys)
                     for keys, value in ((conditions, row[0]), (tests, row[1]), (pairings, row[2])))
    for cond, test, pairing, outcome, gbps, soft, kern, detail in sorted(rows, key=order):
        ref = figures.get((cond, test, REFERENCE))
        value = figures.get((cond, test, pairing))
        share = '%.0f %%' % (100 * value / ref) if value is not None and ref else ''
        if pairing == REFERENCE:
            share = '100 %' if value is not None else ''
        shown = gbps if outcome == 'pass' else 'failed: %s' % detail.replace('|', '/')
        name = PAIRINGS.get(pairing, pairing)
        if test == 'rc_pingpong':
            name = name.replace('->', '<->') + (' (soft serves)' if pairing == 'rxe-client-soft-server' else
                                                 ' (rxe0 serves)' if pairing == 'soft-client-rxe-server' else ' (rxe1 serves)')
        out.append('| %s | %s | %s | %s | %s | %s | %s |' % (CONDITIONS.get(cond, cond), test, name, shown, share,
                                                           soft or '', kern or ''))
    out.append(END_MARK)
    return out


def doc(results_path):
    with open(DOC, encoding='utf-8') as f:
        text = f.read().split('\n')
    start = next(i for i, l in enumerate(text) if l.startswith('<!-- generated: the lossy-link table'))
    end = text.index(END_MARK)
    text[start:end + 1] = table(results_path)
    with open(DOC, 'w', encoding='utf-8') as f:
        f.write('\n'.join(text))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == 'judge':
        sys.exit(judge(*sys.argv[2:]))
    if len(sys.argv) in (2, 3) and sys.argv[1] == 'doc':
        doc(sys.argv[2] if len(sys.argv) == 3 else FULL_RESULTS)
        return
    print(__doc__, file=sys.stderr)
    sys.exit(2)


if __name__ == '__main__':
    main()
