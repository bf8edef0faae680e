"""Checks what the kernel-rxe VM runs left in target/vm and the conformance reports.

Every conformance report with the kernel (the ibverbs provider) on a side is a VM column:
ibverbs-rxe (kernel both sides, required), soft-to-rxe / rxe-to-soft (one side each) when
the VM wrote them, and ibverbs-rxe-<release> for each further kernel scripts/vm-kernels.sh
booted (each expected where target/vm/kernels/<release>/ exists). A case that fails in a
column is accepted only when a findings list
(conformance-tests/findings/<provider>-<device prefix>.tsv) names it for a side of that
column the list's device is on, and, if the line gives a kernel range, for the column's
kernel, with the reason (a kernel behaviour that differs from the IBTA specification, which
the soft provider follows): it is printed as a finding. Any other failure, a column in which
no case passed, a failed interop run or a missing result fails the run. With --kernel-columns
only the ibverbs-rxe-<release> columns are judged (scripts/vm-kernels.sh on its own). Writes
target/vm/summary.env for scripts/test-summary.sh (totals over the VM columns, and one line
per column), one conformance report per interop direction (interop-<direction>.json
beside ibverbs-rxe.json), so the matrix has a column for each soft/kernel pair, and the
repeated-requests report: how many answers rxe0 gave requests a soft client sent twice.

rdma-core's own pyverbs tests ran on rxe0 in the same boot (pyverbs-rxe.json, written by
scripts/pyverbs-run.py) are the reference the suite is mapped to
(conformance-tests/pyverbs/mapping.tsv): the run fails when the reference is missing, when a
pyverbs test that ran has no mapping line, or when a line names a case the suite does not have.
"""
import collections
import datetime
import fnmatch
import glob
import json
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VM = os.path.join(ROOT, "target", "vm")
REPORTS = os.path.join(ROOT, "conformance-tests", "target", "conformance")
# The suite on the kernel's soft-iWARP, both sides siw0 (scripts/vm-guest.sh).
SIW_COLUMN = "ibverbs-siw"
KERNEL_COLUMN = "ibverbs-rxe"
# The suite in docker/'s image on a Docker engine in the same boot (scripts/vm-guest-docker.sh).
CONTAINER_COLUMN = "ibverbs-rxe-container"
CONTAINER_RUN = os.path.join(VM, "docker")
# The cross-provider suite between two containers on one Docker network in the same boot, each
# way, judged case for case against the bare column of the first boot between the same sides:
# (column, bare column, the test, its files in target/vm/docker (.rc, .log, -skipped.txt), the
# families it runs, None for all but its --exclude). Both run the families that put traffic on
# the wire (scripts/vm-guest-docker.sh says why), named by what they leave out.
TWO_CONTAINER_COLUMNS = (
    ("rxe-to-soft-containers", "rxe-to-soft", "SoftRxeContainersTest", "containers", None),
    ("soft-to-rxe-containers", "soft-to-rxe", "SoftToRxeContainersTest", "containers-soft-to-rxe", None),
)
# The columns whose RC pairs connect through the connection manager (--connect cm).
CM_COLUMNS = ("cm-ibverbs-rxe", "cm-soft-to-rxe", "cm-rxe-to-soft")
# The suite across two guests joined by one virtual Ethernet link (rxe-vm/pair.sh runs
# scripts/vm-guest-pair.sh in both), each column judged case for case against its one-host
# column between the same providers: (column, one-host column).
PAIR_COLUMNS = (
    ("pair-soft-to-rxe", "soft-to-rxe"), ("pair-rxe-to-soft", "rxe-to-soft"),
    ("pair-rxe-to-rxe", "ibverbs-rxe"), ("pair-soft-to-soft", "soft-soft-processes"),
    ("cm-pair-soft-to-rxe", "cm-soft-to-rxe"), ("cm-pair-rxe-to-soft", "cm-rxe-to-soft"),
    ("cm-pair-rxe-to-rxe", "cm-ibverbs-rxe"), ("cm-pair-soft-to-soft", "cm-soft-soft-processes"),
)
PAIR_RUN = os.path.join(VM, "pair")
# The peer that reboots (scripts/vm-guest-reboot.sh): each requester on guest A and its checks, in order.
REBOOT_COLUMN = "pair-reboot"
REBOOT_REQUESTERS = ("softToRxe", "rxeToSoft")
REBOOT_CHECKS = ("BothPairsCarryDataBeforeThePeerGoes", "PeerGoesAway", "WriteToTheGonePeerEndsInRetryExceeded",
                 "QueuePairToTheGonePeerIsInError", "LoopbackPairUnharmed", "NewConnectionAfterThePeerReturns")
# The cross columns addressed by IPv6 GIDs: global (fd00:9::/64) and link-local.
IPV6_COLUMNS = ("soft-to-rxe-ipv6", "rxe-to-soft-ipv6", "soft-to-rxe-ipv6ll", "rxe-to-soft-ipv6ll")
# The suite's package: a report's "excluded" names a family (access) or a class (errors.RemoteAccessTest) under it.
SUITE_PACKAGE = "dev.verbs4j.conformance"
FINDINGS = os.path.join(ROOT, "conformance-tests", "findings")
PYVERBS_REFERENCE = os.path.join(REPORTS, "pyverbs-rxe.json")
PYVERBS_MAPPING = os.path.join(ROOT, "conformance-tests", "pyverbs", "mapping.tsv")

# The rule of dev.verbs4j.conformance.report.Findings: a line applies to a run when the list's
# device is on the side it names (a two-column line: on both sides) and, for a four-column
# line, the run's kernel is in the line's range (FIRST..LAST, either end open, compared in as
# many version parts as the bound has).
SIDES = {
    "both": lambda local, remote: local and remote,
    "local": lambda local, remote: local,
    "remote": lambda local, remote: remote,
    "either": lambda local, remote: local or remote,
}


def version_parts(text):
    match = re.match(r"\d+(\.\d+)*", text or "")
    return [int(p) for p in match.group(0).split(".")] if match else None


def kernel_range(text):
    """A predicate on a run's kernel release for a line's KERNELS column."""
    if ".." not in text:
        raise ValueError("a kernel range is FIRST..LAST (either end may be left out): " + text)
    first, last = (version_parts(end) if end.strip() else None for end in text.split("..", 1))

    def compare(release, bound):
        padded = release + [0] * len(bound)
        return (padded[:len(bound)] > bound) - (padded[:len(bound)] < bound)

    def includes(kernel):
        if first is None and last is None:
            return True
        release = version_parts(kernel)
        if release is None:
            return False
        return (first is None or compare(release, first) >= 0) and (last is None or compare(release, last) <= 0)
    return includes


def any_kernel(_kernel):
    return True


def finding_lists():
    """Every findings list as (provider, device prefix, {case id: [(side, reason)]})."""
    lists = []
    for name in sorted(n for n in os.listdir(FINDINGS) if n.endswith(".tsv")):
        provider, prefix = name[:-len(".tsv")].split("-", 1)
        by_case = {}
        with open(os.path.join(FINDINGS, name)) as f:
            for line in f:
                line = line.rstrip("\n")
                fields = line.split("\t")
                if not line.strip() or line.startswith("#") or len(fields) < 2:
                    continue
                kernels = any_kernel
                if len(fields) == 2:
                    side, reason = "both", fields[1]
                elif len(fields) == 3 and fields[1].strip() in ("local", "remote", "either"):
                    side, reason = fields[1].strip(), fields[2]
                elif len(fields) == 4 and fields[1].strip() in SIDES:
                    side, kernels, reason = fields[1].strip(), kernel_range(fields[2].strip()), fields[3]
                else:
                    raise ValueError("%s: a line is case, [local|remote|either|both, [KERNELS,]] reason: %s" % (name, line))
                by_case.setdefault(fields[0].strip(), []).append((side, kernels, reason.strip()))
        lists.append((provider, prefix, by_case))
    return lists


def finding(lists, run, case_id):
    """What the device does instead, if a list names case_id for a side of run its device is on; else None."""
    for provider, prefix, by_case in lists:
        local = run["provider"] == provider and run["device"].startswith(prefix)
        remote = run["peerProvider"] == provider and run["peerDevice"].startswith(prefix)
        for side, kernels, reason in by_case.get(case_id, []):
            if SIDES[side](local, remote) and kernels(run.get("kernel", "")):
                return reason
    return None


def vm_columns():
    """The conformance reports with the kernel on a side, ibverbs-rxe first; the interop reports are judged apart."""
    columns = [r for r in all_reports().values()
               if not r["label"].startswith(("interop-", "pyverbs-")) and "ibverbs" in (r["provider"], r["peerProvider"])]
    return sorted(columns, key=lambda r: (r["label"] != KERNEL_COLUMN, r["label"]))


def judge_column(report, lists, problems):
    """Prints the column's counts and findings and adds its unexplained failures to problems,
    and a problem of its own when no case of the column passed.

    Returns passed, skipped and findings counts, and the column's line for summary.env.
    """
    label = report["label"]
    pair = "%s/%s -> %s/%s" % (report["provider"], report["device"], report["peerProvider"], report["peerDevice"])
    if report.get("kernel"):
        pair += ", kernel " + report["kernel"]
    passed = skipped = 0
    seen_findings = []
    failed_before = len(problems)
    for case in report["cases"]:
        outcome = case["outcome"]
        reason = finding(lists, report, case["id"])
        if outcome == "pass":
            passed += 1
            if reason and label != PATCHED_COLUMN:  # there judge_patched wants the fixes
                print("%s: listed finding no longer reproduces (remove it, or narrow its side or kernel range): %s" % (label, case["id"]))
        elif outcome == "skip":
            skipped += 1
        elif reason:
            seen_findings.append((case["id"], case["detail"], reason))
        else:
            problems.append("conformance case failed in %s (%s): %s: %s" % (label, pair, case["id"], case["detail"]))
    failed = len(problems) - failed_before
    print("conformance %s (%s): %d passed, %d findings, %d skipped, %d unexpected failures"
          % (label, pair, passed, len(seen_findings), skipped, failed))
    # Every column the VM runs has cases its devices pass (none runs only for its skips), so a
    # column without a pass tested nothing: its device never came up, or every case skipped.
    if passed == 0:
        problems.append("conformance %s (%s): no case passed (%d cases: %d skipped, %d findings, %d failed)"
                        % (label, pair, len(report["cases"]), skipped, len(seen_findings), failed))
    # One line per kernel behaviour, with how many cases show it; the matrix has each case.
    by_reason = {}
    for case, _detail, reason in seen_findings:
        by_reason.setdefault(reason, []).append(case)
    for reason, cases in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        print("  %d finding(s), e.g. %s: %s" % (len(cases), cases[0], reason))
    return passed, skipped, len(seen_findings), "%s: %d passed, %d failed, %d skipped, %d findings" % (
        label, passed, failed, skipped, len(seen_findings))


# What each side of `verbs4j pingpong --all-ops` prints once a check has passed: one
# interop case per check, so a missing line is a failed case with the log's last words.
INTEROP_CASES = [
    ("interop/PingPong#sendReceiveRoundTrips", "send/receive round trips, every byte checked",
     [("client", r"round trips of [0-9,]+ bytes: average"), ("server", r"served [0-9]+ round trips")]),
    ("interop/PingPong#rdmaWriteThenReadBack", "RDMA WRITE into the server's region, RDMA READ back",
     [("client", r"RDMA WRITE of .* RDMA READ back: identical"), ("server", r"RDMA WRITE of .* arrived intact")]),
    ("interop/PingPong#atomicsAtomicWriteAndFlush", "FETCH_ADD, COMPARE_AND_SWAP, ATOMIC WRITE and FLUSH",
     [("client", r"FETCH_ADD, COMPARE_AND_SWAP, ATOMIC WRITE and FLUSH .*: results as expected")]),
    ("interop/PingPong#bothSidesVerifiedEverything", "both sides verified every byte and exited 0",
     [("client", r"all checks passed"), ("server", r"all checks passed")]),
]
# direction -> (client provider, client device, server provider, server device)
INTEROP_SIDES = {
    "kernel-server-soft-client": ("soft", "soft0", "ibverbs", "rxe0"),
    "soft-server-kernel-client": ("ibverbs", "rxe0", "soft", "soft0"),
    # pingpong --cm: the same checks, connected through the connection manager
    "cm-kernel-server-soft-client": ("soft", "soft0", "ibverbs", "rxe0"),
    "cm-soft-server-kernel-client": ("ibverbs", "rxe0", "soft", "soft0"),
}


def pyverbs_mapping():
    """mapping.tsv as {pyverbs test id: ([case ids], reason)}; the rule of report.PyverbsMapping."""
    mapping = {}
    with open(PYVERBS_MAPPING) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
                raise ValueError("mapping.tsv: a line is 'pyverbs test<TAB>case ids or reason: ...': " + line)
            test, target = fields[0].strip(), fields[1].strip()
            if target.startswith("reason:"):
                mapping[test] = ([], target[len("reason:"):].strip())
            else:
                mapping[test] = ([c.strip() for c in target.split(",") if c.strip()], "")
    return mapping


def judge_pyverbs(suite_cases, problems):
    """Checks every pyverbs test that ran on rxe0 against the mapping; returns the summary line."""
    try:
        with open(PYVERBS_REFERENCE) as f:
            reference = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("pyverbs reference: no readable %s (%s; log: target/vm/pyverbs.log)" % (PYVERBS_REFERENCE, e))
        return "pyverbs: did not run"
    mapping = pyverbs_mapping()
    tests = reference.get("tests", [])
    ran = [t for t in tests if t["outcome"] != "skip"]
    if not ran:
        problems.append("pyverbs reference: no pyverbs test ran on %s (log: target/vm/pyverbs.log)" % reference.get("device"))
    mapped = reasoned = unmapped = 0
    for t in ran:
        cases, reason = mapping.get(t["id"], (None, None))
        if cases is None:
            unmapped += 1
            problems.append("pyverbs test %s ran on rxe0 but has no line in conformance-tests/pyverbs/mapping.tsv" % t["id"])
            continue
        if reason:
            reasoned += 1
        else:
            mapped += 1
        for case in cases:
            if case not in suite_cases:
                problems.append("mapping.tsv maps pyverbs test %s to %s, which the suite does not have" % (t["id"], case))
    stale = sorted(set(mapping) - {t["id"] for t in ran})
    if stale:
        print("  mapping.tsv has %d line(s) for pyverbs tests that did not run on rxe0 (skipped or gone): %s"
              % (len(stale), ", ".join(stale)))
    for t in ran:
        if t["outcome"] != "pass":
            print("  pyverbs %s on rxe0: %s %s" % (t["id"], t["outcome"], t.get("detail", "")))
    counts = {k: sum(1 for t in tests if t["outcome"] == k) for k in ("pass", "fail", "error", "skip")}
    line = ("pyverbs on rxe0: %d ran (%d passed, %d failed, %d errors), %d skipped, in %d s; %d mapped to suite cases, "
            "%d with a reason, %d unmapped" % (len(ran), counts["pass"], counts["fail"], counts["error"], counts["skip"],
                                                reference.get("durationMs", 0) // 1000, mapped, reasoned, unmapped))
    print(line)
    return line


def read_lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except OSError:
        return []


def finished_at(path):
    """When the file was last written, as an ISO-8601 instant (the epoch when it is missing)."""
    seconds = os.path.getmtime(path) if os.path.exists(path) else 0
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_interop_report(name, rc):
    """Writes conformance-tests/target/conformance/interop-<name>.json; returns its failed cases."""
    logs = {side: read_lines(os.path.join(VM, "interop-%s-%s.log" % (name, side))) for side in ("client", "server")}
    cases = []
    for case_id, words, checks in INTEROP_CASES:
        missing = [(side, pattern) for side, pattern in checks
                   if not any(re.search(pattern, line) for line in logs[side])]
        if case_id.endswith("#bothSidesVerifiedEverything") and rc != ["0", "0"]:
            missing.append(("exit status", "client, server: " + " ".join(rc)))
        detail = ""
        if missing:
            side, _ = missing[0]
            tail = (logs.get(side) or ["(no output)"])[-1] if side in logs else " ".join(rc)
            detail = "%s did not report it; last line: %s" % (side, tail)
        cases.append({"id": case_id, "class": "dev.verbs4j.tools.PingPong", "name": words,
                      "outcome": "fail" if missing else "pass", "detail": detail, "durationMs": 0})
    client_provider, client_device, server_provider, server_device = INTEROP_SIDES[name]
    failed = sum(1 for c in cases if c["outcome"] == "fail")
    report = {
        "format": "verbs4j-conformance-report/1",
        "label": "interop-" + name,
        "provider": client_provider, "device": client_device,
        "peerProvider": server_provider, "peerDevice": server_device,
        "startedAt": finished_at(os.path.join(VM, "interop-%s.rc" % name)),
        "durationMs": 0,
        "environment": "kernel rxe micro-VM: verbs4j pingpong --all-ops over a veth pair, soft engine in its own netns",
        "counts": {"pass": len(cases) - failed, "fail": failed, "skip": 0},
        "cases": cases,
    }
    with open(os.path.join(REPORTS, "interop-%s.json" % name), "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    return [c for c in cases if c["outcome"] == "fail"]


# The repeated-requests column (vm-guest.sh): a soft client that sends every packet twice runs
# one perf test against a perf server on rxe0; each request must be answered twice.
REPEAT_COLUMN = "repeated-requests"
REPEAT_CASES = [
    ("read_lat", "wire/RepeatedRequest#readIsAnsweredAgain", "an RDMA READ that comes twice is answered twice"),
    ("atomic_write_lat", "wire/RepeatedRequest#atomicWriteIsAnsweredAgain",
     "an ATOMIC WRITE that comes twice is answered twice"),
    ("flush_lat", "wire/RepeatedRequest#flushIsAnsweredAgain", "a FLUSH that comes twice is answered twice"),
]


def repeat_outcome(requests, answers):
    """pass when every request was answered twice (the last repeat's answer may come after the
    client read its counters), fail when none was answered again; None for anything between."""
    if requests > 0 and answers >= 2 * requests - 1:
        return "pass"
    if requests > 0 and requests <= answers <= requests + 1:
        return "fail"
    return None


def write_repeat_report(problems):
    """Writes conformance-tests/target/conformance/repeated-requests.json from the repeat pairings'
    logs, when they ran. A pairing that did not run or whose answers fit neither outcome is a
    problem of its own, so that no findings line can excuse it."""
    if not glob.glob(os.path.join(VM, "perf-repeat-*.rc")):
        return
    cases = []
    device = "soft0"
    for test, case_id, words in REPEAT_CASES:
        rc = (read_lines(os.path.join(VM, "perf-repeat-%s.rc" % test)) or ["missing"])[0].split()
        counted = None
        for line in read_lines(os.path.join(VM, "perf-repeat-%s-client.log" % test)) or []:
            m = re.search(r"counters: (\S+): out (\d+), in (\d+)", line)
            if m:
                device, counted = m.group(1), (int(m.group(2)), int(m.group(3)))
        outcome = repeat_outcome(*counted) if counted and rc == ["0", "0"] else None
        if outcome is None:
            problems.append("repeated requests, %s: the pairing did not measure it (client, server status: %s; "
                            "requests and answers: %s; logs in target/vm/perf-repeat-%s-*.log)"
                            % (test, " ".join(rc), counted, test))
            outcome = "fail"
        detail = "%d requests, each sent twice: %d answers" % counted if counted else "not measured"
        cases.append({"id": case_id, "class": "dev.verbs4j.tools.perf.PerfCommand", "name": words,
                      "outcome": outcome, "detail": detail, "durationMs": 0})
    failed = sum(1 for c in cases if c["outcome"] == "fail")
    report = {
        "format": "verbs4j-conformance-report/1",
        "label": REPEAT_COLUMN,
        "provider": "soft", "device": device,
        "peerProvider": "ibverbs", "peerDevice": "rxe0",
        "kernel": (read_lines(os.path.join(VM, "repeat-kernel.txt")) or [""])[0],
        "startedAt": finished_at(os.path.join(VM, "perf-repeat-flush_lat.rc")),
        "durationMs": 0,
        "environment": "kernel rxe micro-VM: verbs4j perf with every packet of the soft client sent twice, "
                       "against verbs4j perf --server on rxe0",
        "counts": {"pass": len(cases) - failed, "fail": failed, "skip": 0},
        "cases": cases,
    }
    with open(os.path.join(REPORTS, REPEAT_COLUMN + ".json"), "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")


def perf_line(path, pattern):
    try:
        with open(path) as f:
            for line in f:
                if re.match(pattern, line.strip()):
                    return line.split()
    except OSError:
        pass
    return None


def share_of(value, reference, reference_name):
    """value as a percentage of reference, or why there is no percentage."""
    if reference > 0:
        return "%.0f%%" % (100 * value / reference)
    return "no ratio (%s reported %.3f this run)" % (reference_name, reference)


def kernel_label(release):
    """The column scripts/vm-guest-kernel.sh writes for a kernel release."""
    return KERNEL_COLUMN + "-" + re.sub(r"-amd64$", "", release)


def booted_kernels():
    """The releases scripts/vm-kernels.sh booted: "release" -> its timing line, if it wrote one."""
    kernels = {}
    folder = os.path.join(VM, "kernels")
    if os.path.isdir(folder):
        for release in sorted(os.listdir(folder)):
            timing = read_lines(os.path.join(folder, release, "timing.txt"))
            kernels[release] = timing[0] if timing else ""
    return kernels


def judge_container(columns, lists, problems):
    """The container column against ibverbs-rxe, case for case, when the Docker boot ran (target/vm/docker).

    Both columns run the same suite on the same kernel's rxe, so each case must have the same
    outcome in both; a case whose outcome differs is accepted only when a findings list names it
    for that kernel (a behaviour of the kernel's device that is seen in some runs only), and is
    printed with both outcomes. Where the Docker route was skipped, says why. The same boot's
    two-container columns are judged by judge_two_containers; returns the lines of skipped columns.
    """
    skipped = read_lines(os.path.join(CONTAINER_RUN, "skipped.txt"))
    if skipped:
        line = "%s: SKIPPED: %s" % (CONTAINER_COLUMN, " ".join(skipped))
        print(line)
        return [line]
    if not os.path.isdir(CONTAINER_RUN):
        return []
    for line in read_lines(os.path.join(CONTAINER_RUN, "timing.txt")):
        print("docker in the VM: %s s" % line)
    rc = (read_lines(os.path.join(CONTAINER_RUN, "docker.rc")) or ["missing"])[0]
    by_label = {r["label"]: r for r in columns}
    container, bare = by_label.get(CONTAINER_COLUMN), by_label.get(KERNEL_COLUMN)
    if container is None:
        reason = " ".join(read_lines(os.path.join(CONTAINER_RUN, "error.txt"))) or "see target/vm/docker"
        problems.append("no %s.json conformance report (docker.rc %s: %s)" % (CONTAINER_COLUMN, rc, reason))
        return judge_two_containers(by_label, lists, problems)
    if rc != "0":
        problems.append("the Docker run in the VM failed (docker.rc %s; logs in target/vm/docker)" % rc)
    test_rc = (read_lines(os.path.join(CONTAINER_RUN, "testcontainers.rc")) or ["missing"])[0]
    if test_rc != "0":
        problems.append("RxeConformanceContainerTest (Testcontainers) did not pass in the VM (status %s, 2 = skipped; "
                        "log: target/vm/docker/testcontainers.log); the column came from the docker CLI" % test_rc)
    else:
        print("RxeConformanceContainerTest passed through Testcontainers on the guest's Docker engine")
    compare_columns(bare, container, lists, problems)
    return judge_two_containers(by_label, lists, problems)


def left_out(report, case):
    """Whether the run of report left case (a report's case entry) out on purpose: its --exclude names the family or
    class, or the class and a glob its key (the id after #) matches."""
    for exclusion in report.get("excluded", []):
        what, _, key_glob = exclusion.partition("#")
        name = what if what.startswith(SUITE_PACKAGE + ".") else SUITE_PACKAGE + "." + what
        if key_glob:
            if case["class"] == name and fnmatch.fnmatchcase(case["id"].partition("#")[2], key_glob):
                return True
        elif case["class"] == name or ("." not in what and case["class"].startswith(name + ".")):
            return True
    return False


def in_families(case, families):
    """Whether case (a report's case entry) is in one of the suite's families (access, base, ...); None: all are."""
    return families is None or any(case["class"].startswith("%s.%s." % (SUITE_PACKAGE, f)) for f in families)


def compare_columns(bare, other, lists, problems, families=None, kind="container"):
    """Adds a problem for each case whose outcome differs between the two columns, unless a findings list names it;
    the cases the other column left out on purpose (its "excluded", or outside the families it ran) are only
    counted. kind names the other column in the messages (a container column, a two-host column)."""
    if bare is None:
        return
    outcomes = {c["id"]: c["outcome"] for c in bare["cases"] if in_families(c, families) and not left_out(other, c)}
    in_other = {c["id"]: c["outcome"] for c in other["cases"]}
    if len(outcomes) < len(bare["cases"]):
        what = other["excluded"] + (["all but " + ", ".join(families)] if families else [])
        print("%s column %s left out %s: %d cases of %s not compared"
              % (kind, other["label"], ", ".join(what), len(bare["cases"]) - len(outcomes), bare["label"]))
    differ = sorted(case for case in set(outcomes) | set(in_other) if outcomes.get(case) != in_other.get(case))
    for case in differ:
        line = "%s: %s in %s, %s in %s" % (case, outcomes.get(case, "absent"), bare["label"],
                                         in_other.get(case, "absent"), other["label"])
        reason = finding(lists, other, case)
        if reason:
            print("  %s column differs, listed finding: %s (%s)" % (kind, line, reason))
        else:
            problems.append("the %s column differs from %s: %s" % (kind, bare["label"], line))
    print("%s column %s against %s: %d cases, %d with the same outcome, %d differ"
          % (kind, other["label"], bare["label"], len(set(outcomes) | set(in_other)),
             len(set(outcomes) | set(in_other)) - len(differ), len(differ)))


def judge_two_containers(by_label, lists, problems):
    """The two-container columns, each against its bare column; a column missing without a skip fails the run.

    A test skips, and its -skipped.txt says why, only where the kernel's rdma_rxe has no
    per-network-namespace sockets; returns the lines of the skipped columns.
    """
    lines = []
    for label, bare_label, test, files, families in TWO_CONTAINER_COLUMNS:
        skipped = read_lines(os.path.join(CONTAINER_RUN, files + "-skipped.txt"))
        if skipped:
            line = "%s: SKIPPED: %s" % (label, " ".join(skipped))
            print(line)
            lines.append(line)
            continue
        rc = (read_lines(os.path.join(CONTAINER_RUN, files + ".rc")) or ["missing"])[0]
        log = "target/vm/docker/%s.log" % files
        if rc != "0":
            problems.append("%s (two containers on one Docker network, %s) did not pass in the VM (status %s; log: %s)"
                            % (test, label, rc, log))
        else:
            print("%s passed through Testcontainers: an ibverbs and a soft container on one Docker network (%s)" % (test, label))
        column = by_label.get(label)
        if column is None:
            problems.append("no %s.json conformance report (log: %s)" % (label, log))
            continue
        compare_columns(by_label.get(bare_label), column, lists, problems, families)
    return lines


def all_reports():
    """Every conformance report of the run by label, the host's columns included."""
    reports = {}
    for name in sorted(os.listdir(REPORTS)) if os.path.isdir(REPORTS) else []:
        if name.endswith(".json"):
            try:
                with open(os.path.join(REPORTS, name)) as f:
                    report = json.load(f)
            except ValueError:
                continue
            if isinstance(report, dict) and report.get("format") == "verbs4j-conformance-report/1":
                reports[report["label"]] = report
    return reports


def judge_pairs(lists, problems):
    """The two-host columns that ran (scripts/vm-pair.sh's selection), each against its one-host column; returns
    their summary lines. A selected column without a report fails."""
    ran = read_lines(os.path.join(PAIR_RUN, "columns.txt"))
    rebooted = read_lines(os.path.join(PAIR_RUN, "reboot.txt")) == ["1"]
    if not ran and not rebooted:
        problems.append("no two-host column ran (target/vm/pair/columns.txt is empty or missing)")
        return []
    families = tuple(read_lines(os.path.join(PAIR_RUN, "families.txt"))) or None
    cm_families = tuple(read_lines(os.path.join(PAIR_RUN, "cm-families.txt"))) or families
    reports = all_reports()
    lines = [judge_reboot(lists, problems)] if rebooted else []
    for label, one_host in PAIR_COLUMNS:
        if label not in ran:
            continue
        column = reports.get(label)
        if column is None:
            problems.append("no %s.json conformance report (logs in target/vm/pair/)" % label)
            lines.append("%s: missing" % label)
            continue
        if one_host not in reports:
            problems.append("%s: its one-host column %s has no report to compare with" % (label, one_host))
        before = len(problems)
        compare_columns(reports.get(one_host), column, lists, problems,
                        cm_families if label.startswith("cm-") else families, kind="two-host")
        counts = {}
        for case in column["cases"]:
            counts[case["outcome"]] = counts.get(case["outcome"], 0) + 1
        lines.append("%s: %d passed, %d failed, %d skipped, %d differ from %s" % (
            label, counts.get("pass", 0), counts.get("fail", 0), counts.get("skip", 0), len(problems) - before, one_host))
    return lines


def judge_reboot(lists, problems):
    """The reboot checks (target/vm/pair/reboot-*.tsv, scripts/vm-guest-reboot.sh): guest B
    rebooted under guest A's connected queue pairs, each way between soft and rxe. Every
    check of both requesters must be there: a requester that died early left some out."""
    paths = sorted(glob.glob(os.path.join(PAIR_RUN, "reboot-*.tsv")))
    line = judge_tsv_column(REBOOT_COLUMN, "dev.verbs4j.conformance.twohost", paths, {
        "provider": "soft", "device": "soft0", "peerProvider": "ibverbs", "peerDevice": "rxe0",
        "environment": "two kernel rxe micro-VMs on one virtual link: guest B reboots under guest A's queue pairs",
    }, lists, problems)
    seen = {l.split("\t", 1)[0] for p in paths for l in read_lines(p)}
    for requester in REBOOT_REQUESTERS:
        for check in REBOOT_CHECKS:
            if "reboot/PeerRebootTest#" + requester + check not in seen:
                problems.append("%s: the check %s%s did not run (logs in target/vm/pair/reboot-*.log)"
                                % (REBOOT_COLUMN, requester, check))
    return line or "%s: none ran" % REBOOT_COLUMN


def judge_kernel_columns(columns, problems):
    """Adds a problem for each booted kernel whose column is missing; prints each kernel's times."""
    labels = {r["label"] for r in columns}
    for release, timing in booted_kernels().items():
        if timing:
            print("kernel %s: %s" % (release, timing))
        if kernel_label(release) not in labels:
            problems.append("kernel %s: no %s.json conformance report (log in target/vm/kernels/%s)"
                            % (release, kernel_label(release), release))


# The C reproducers of kernel/reproducers (one per defect), run on each kernel the test
# command boots: target/vm/reproducers.tsv (the newest kernel, its release in
# repeat-kernel.txt) and target/vm/kernels/<release>/reproducers.tsv, lines of
# name, exit status, the line it printed. Each program's "Finding:" line names the case of the
# findings list it reproduces ("-": none, the defect is expected wherever it runs).
REPRODUCERS = os.path.join(ROOT, "kernel", "reproducers")
REPRODUCER_OUTCOMES = {"0": "ok", "1": "defect", "77": "skip"}


def judge_reproducers(lists, problems):
    """Writes conformance-reproducers.md (reproducer x kernel) beside the view by kernel; a
    reproducer that says ok where the list has its finding for that kernel, shows a defect
    where it has none, or fails to run is a problem."""
    expected = {}
    for path in sorted(glob.glob(os.path.join(REPRODUCERS, "*.c"))):
        with open(path) as f:
            match = re.search(r"^ \* Finding: (\S+)", f.read(), re.M)
        expected[os.path.basename(path)[:-2]] = match.group(1) if match else "-"
    runs = []
    newest = read_lines(os.path.join(VM, "repeat-kernel.txt"))
    if os.path.exists(os.path.join(VM, "reproducers.tsv")) and newest:
        runs.append((newest[0], os.path.join(VM, "reproducers.tsv")))
    for release in booted_kernels():
        runs.append((release, os.path.join(VM, "kernels", release, "reproducers.tsv")))
    runs = [(release, path) for release, path in runs if os.path.exists(path)]
    if not runs:
        return
    runs.sort(key=lambda r: version_parts(r[0]) or [])
    table = {}
    for release, path in runs:
        run = {"provider": "ibverbs", "device": "rxe0", "peerProvider": "ibverbs", "peerDevice": "rxe0",
               "kernel": release}
        for line in read_lines(path):
            name, status, said = (line.split("\t", 2) + ["", ""])[:3]
            outcome = REPRODUCER_OUTCOMES.get(status, "error %s" % status)
            case = expected.get(name, "-")
            listed = case == "-" or finding(lists, run, case) is not None
            if outcome == "ok" and listed or outcome == "defect" and not listed or outcome.startswith("error"):
                problems.append("reproducer %s on kernel %s: %s (%s)"
                                % (name, release, outcome, "the findings list has the defect there" if outcome == "ok"
                                   else "the findings list has no such defect there" if outcome == "defect" else said))
                outcome += " (mismatch)"
            table.setdefault(name, {})[release] = outcome
    lines = ["# The rxe reproducers by kernel", "",
             "kernel/reproducers/run.sh on each kernel the run booted: `defect` where the kernel shows it, "
             "`ok` where it behaves as IBTA asks, `skip` where the kernel lacks the feature (or the program "
             "would panic it). Made %s." % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "",
             "| reproducer | " + " | ".join(kernel_label(r).replace(KERNEL_COLUMN + "-", "") for r, _ in runs) + " |",
             "|---|" + "---|" * len(runs)]
    for name in sorted(table):
        lines.append("| `%s` | %s |" % (name, " | ".join(table[name].get(r, "–") for r, _ in runs)))
    with open(os.path.join(REPORTS, "conformance-reproducers.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[4:]))


# The suite on the newest kernel with kernel/patches' series in its rdma_rxe (a boot of its own,
# target/vm/patched/), judged case for case against ibverbs-rxe of the stock module: every case
# that fails there with a listed finding must pass, except what kernel/patches/unfixed.tsv
# names, and nothing else may change. The reproducers of that boot must all say ok, but the
# unfixed ones.
PATCHED_COLUMN = "ibverbs-rxe-patched"
PATCHED_RUN = os.path.join(VM, "patched")
UNFIXED = os.path.join(ROOT, "kernel", "patches", "unfixed.tsv")


def judge_patched(columns, lists, problems):
    """Returns the column's summary line; adds what the series failed to fix, or changed, to problems."""
    by_label = {r["label"]: r for r in columns}
    patched, stock = by_label.get(PATCHED_COLUMN), by_label.get(KERNEL_COLUMN)
    if patched is None:
        why = read_lines(os.path.join(VM, "patched-module.txt"))
        problems.append("no %s.json conformance report: %s" % (PATCHED_COLUMN, why[0] if why else
                                                               "see target/vm/patched/conformance.log"))
        return "%s: missing" % PATCHED_COLUMN
    unfixed = {}
    for line in read_lines(UNFIXED):
        if line.strip() and not line.startswith("#"):
            name, why = (line.split("\t", 1) + [""])[:2]
            unfixed[name.strip()] = why
    before = {c["id"]: c["outcome"] for c in stock["cases"]}
    fixed = kept = 0
    problems_before = len(problems)
    for case in patched["cases"]:
        was, now = before.get(case["id"], "absent"), case["outcome"]
        listed = finding(lists, stock, case["id"]) is not None
        if was == "fail" and listed and case["id"] not in unfixed:
            if now == "pass":
                fixed += 1
            else:
                problems.append("%s: the series leaves %s failing: %s" % (PATCHED_COLUMN, case["id"], case["detail"]))
        elif case["id"] in unfixed:
            kept += 1
            if now != "fail":
                problems.append("%s: %s %s with the series, but kernel/patches/unfixed.tsv lists it as unfixed"
                                % (PATCHED_COLUMN, case["id"], now))
        elif was != now:
            problems.append("%s: the series changes %s: %s on the stock module, %s with the series: %s"
                            % (PATCHED_COLUMN, case["id"], was, now, case["detail"]))
    statuses = {}
    for line in read_lines(os.path.join(PATCHED_RUN, "reproducers.tsv")):
        name, status, said = (line.split("\t", 2) + ["", ""])[:3]
        statuses[name] = status
        want = "1" if name in unfixed else "0"
        if status != want:
            problems.append("%s: reproducer %s exits %s with the series (%s expected): %s"
                            % (PATCHED_COLUMN, name, status, want, said))
    # A boot the series took down ends the list early: every reproducer must have its line.
    for path in sorted(glob.glob(os.path.join(REPRODUCERS, "*.c"))):
        name = os.path.basename(path)[:-2]
        if name not in statuses:
            problems.append("%s: reproducer %s did not run with the series (log: target/vm/patched/guest.log)"
                            % (PATCHED_COLUMN, name))
    line = "%s: the series fixes %d failing cases, leaves %d as kernel/patches/unfixed.tsv says, %s" % (
        PATCHED_COLUMN, fixed, kept, "changes nothing else" if len(problems) == problems_before
        else "%d problem(s)" % (len(problems) - problems_before))
    print(line)
    return line


def judge_netdev(column_lines, problems):
    """scripts/vm-guest-netdev.sh's checks (target/vm/netdev.txt): a FAIL line, or no file, fails the run."""
    lines = read_lines(os.path.join(VM, "netdev.txt"))
    if not lines:
        problems.append("no target/vm/netdev.txt: the soft device on an interface was not checked")
        return 0
    ok = [l for l in lines if l.startswith("ok ")]
    failed = [l[len("FAIL"):].strip() for l in lines if l.startswith("FAIL")]
    for name in failed:
        problems.append("soft device on an interface: %s failed (logs in target/vm/netdev)" % name)
    column_lines.append("netdev: %d passed, %d failed" % (len(ok), len(failed)))
    print("soft device on an interface: %d checks passed, %d failed" % (len(ok), len(failed)))
    return len(ok)


def judge_tsv_column(label, case_class, paths, report_fields, lists, problems):
    """A column of checks run by a guest script: every line (case id, pass|fail|skip, detail)
    of the files at paths becomes a case (of case_class) of
    conformance-tests/target/conformance/LABEL.json, with report_fields (provider,
    devices, environment). A failure the findings list for the column's sides is a finding, any other failure a problem. Returns the column's line, or
    None when no file had a case."""
    cases = []
    for path in paths:
        for line in read_lines(path):
            fields = line.split("\t", 2)
            if len(fields) < 2:
                continue
            case_id, outcome, detail = fields[0], fields[1], fields[2] if len(fields) > 2 else ""
            if case_id.startswith("figure:"):
                print("perftest in the same boot, %s: %s" % (case_id[len("figure:"):], detail))
                continue
            if "/" not in case_id:
                # perftest's pairings are named test-direction: ctools/perftest#test-direction
                case_id = "ctools/perftest#" + case_id
            cases.append({"id": case_id, "class": case_class, "name": case_id.split("/", 1)[-1],
                          "outcome": outcome, "detail": detail, "durationMs": 0})
    if not cases:
        return None
    counts = {o: sum(1 for c in cases if c["outcome"] == o) for o in ("pass", "fail", "skip")}
    report = {"format": "verbs4j-conformance-report/1", "label": label}
    report.update(report_fields)
    report.update({"startedAt": finished_at(paths[-1]), "durationMs": 0, "counts": counts, "cases": cases})
    with open(os.path.join(REPORTS, label + ".json"), "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    findings = 0
    for c in cases:
        reason = finding(lists, report, c["id"])
        if c["outcome"] == "fail" and reason:
            findings += 1
            print("%s finding: %s: %s" % (label, c["id"], reason))
        elif c["outcome"] == "fail":
            problems.append("%s %s failed: %s" % (label, c["id"], c["detail"]))
        elif c["outcome"] == "pass" and reason:
            print("%s: listed finding no longer reproduces (remove it): %s" % (label, c["id"]))
    line = "%s: %d passed, %d failed, %d skipped, %d findings" % (
        label, counts["pass"], counts["fail"] - findings, counts["skip"], findings)
    print(line)
    return line


def judge_c_tools(lists, problems):
    """The c-tools column (target/vm/c-tools*.tsv): rdma-core's and perftest's programs on rxe0,
    the remote side of the column, against verbs4j --compat on a soft device."""
    line = judge_tsv_column("c-tools", "dev.verbs4j.tools.compat", sorted(glob.glob(os.path.join(VM, "c-tools*.tsv"))), {
        "provider": "soft", "device": "soft-10.9.0.2", "peerProvider": "ibverbs", "peerDevice": "rxe0",
        "environment": "kernel rxe micro-VM: rdma-core's and perftest's programs on rxe0, verbs4j --compat on a soft device in its own netns",
    }, lists, problems)
    if line is None:
        problems.append("c-tools: no pairing of rdma-core's or perftest's programs with the soft provider ran")
        return "c-tools: none ran"
    return line


def judge_nvmeof(lists, problems):
    """The nvmeof column (target/vm/nvmeof.tsv, scripts/vm-guest-nvmeof.sh): the kernel's NVMe
    host and target against verbs4j's, both ways and on both providers, one line per check;
    and the figures beside the kernel target's (target/vm/nvmeof-figures.tsv)."""
    path = os.path.join(VM, "nvmeof.tsv")
    line = judge_tsv_column("nvmeof", "dev.verbs4j.nvmeof", [path] if os.path.exists(path) else [], {
        "provider": "soft", "device": "soft-10.9.0.2", "peerProvider": "ibverbs", "peerDevice": "rxe0",
        "environment": "kernel rxe micro-VM: nvme-rdma, nvmet-rdma, nvme-cli and fio against the verbs4j NVMe-oF target and host",
    }, lists, problems)
    if line is None:
        problems.append("nvmeof: no result (log in target/vm/nvmeof-guest.log)")
        return "nvmeof: none ran"
    figures = {}
    for row in read_lines(os.path.join(VM, "nvmeof-figures.tsv")) or []:
        fields = row.split("\t")
        if len(fields) == 3:
            figures[fields[0]] = float(fields[1])
    reference = "kernel-host-kernel-target"
    for key in sorted(figures):
        pairing, measure = key.split("/", 1)
        ref = figures.get(reference + "/" + measure)
        if pairing != reference and ref:
            print("nvmeof %s %s: %.2f against the kernel target's %.2f (%.0f %%)"
                  % (pairing, measure, figures[key], ref, 100.0 * figures[key] / ref))
    return line


def judge_nvmeof_siw(lists, problems):
    """The nvmeof-siw column (target/vm/nvmeof-siw.tsv, scripts/vm-guest-nvmeof-siw.sh): the
    kernel's NVMe host and target against verbs4j's on siw0, iWARP. Absent only where the siw
    module could not be built, which siw-module.txt says."""
    path = os.path.join(VM, "nvmeof-siw.tsv")
    line = judge_tsv_column("nvmeof-siw", "dev.verbs4j.nvmeof", [path] if os.path.exists(path) else [], {
        "provider": "ibverbs", "device": "siw0", "peerProvider": "ibverbs", "peerDevice": "siw0",
        "environment": "kernel rxe micro-VM, siw0 on dummy0: nvme-rdma, nvmet-rdma, nvme-cli and fio against the verbs4j NVMe-oF target and host",
    }, lists, problems)
    if line is None:
        why = read_lines(os.path.join(VM, "siw-module.txt"))
        problems.append("nvmeof-siw: no result: %s" % (why[0] if why else "log in target/vm/nvmeof-siw-guest.log"))
        return "nvmeof-siw: none ran"
    return line


def judge_fuzzer(column_lines, problems):
    """The API fuzzer's run on rxe0 (fuzz.rc, fuzz.log): 1 when it passed, else 0 and a problem."""
    try:
        with open(os.path.join(VM, "fuzz.rc")) as f:
            rc = f.read().strip()
    except OSError:
        rc = "missing"
    log = read_lines(os.path.join(VM, "fuzz.log")) or []
    verdict = next((line for line in log if line.startswith("fuzz ibverbs:")), "no verdict in target/vm/fuzz.log")
    if rc == "0":
        column_lines.append("fuzz-ibverbs-rxe: 1 passed, 0 failed (%s)" % verdict)
        print(verdict)
        return 1
    column_lines.append("fuzz-ibverbs-rxe: 0 passed, 1 failed")
    detail = "; ".join(line for line in log if line.startswith("FUZZ PROBLEM")) or verdict
    problems.append("the API fuzzer on rxe0 failed (status %s): %s; logs in target/vm/fuzz" % (rc, detail))
    return 0


def judge_connection_manager(column_lines, problems):
    """CmRxeLoopbackTest on rxe0 (cm.rc, cm.log, the JUnit launcher's summary): the cases passed."""
    try:
        with open(os.path.join(VM, "cm.rc")) as f:
            rc = f.read().strip()
    except OSError:
        rc = "missing"
    log = read_lines(os.path.join(VM, "cm.log")) or []

    def count(word):
        for line in log:
            m = re.match(r"^\[\s*(\d+) tests %s\s*\]" % word, line)
            if m:
                return int(m.group(1))
        return 0
    passed, failed = count("successful"), count("failed")
    column_lines.append("cm-rxe-loopback: %d passed, %d failed" % (passed, failed))
    print("connection manager on rxe0: %d passed, %d failed, %d skipped" % (passed, failed, count("skipped")))
    if rc != "0" or passed == 0:
        problems.append("the connection manager on rxe0 failed (status %s, %d cases failed); log in target/vm/cm.log"
                        % (rc, failed))
    return passed


def judge_lossy(column_lines, problems):
    """The soft provider against rxe at 1 % loss (scripts/vm-guest-lossy.sh: lossy.rc, lossy.txt)."""
    rc = (read_lines(os.path.join(VM, "lossy.rc")) or ["missing"])[0].strip()
    verdict = read_lines(os.path.join(VM, "lossy.txt")) or []
    failed = [line[len("fail"):].strip() for line in verdict if line.startswith("fail")]
    for line in verdict:
        if line.startswith(("goal", "below")):
            print("lossy link: " + line)
    column_lines.append("lossy-link: %s" % (verdict[-1].replace("lossy link: ", "") if verdict else "no verdict"))
    if rc != "0" or failed or not verdict:
        why = "; ".join(failed) or ("no verdict in target/vm/lossy.txt" if not verdict else "no status in target/vm/lossy.rc")
        problems.append("the lossy link (1 %% loss) failed (status %s): %s; logs in target/vm/lossy" % (rc, why))
        return 0
    return 1


BLKTESTS_FINDINGS = os.path.join(ROOT, "nvmeof", "blktests-findings.tsv")


def judge_blktests(column_lines, problems):
    """blktests' nvme group (scripts/vm-blktests.sh: target/vm/blktests.tsv, or blktests-skipped.txt
    saying why it did not run): the kernel host against verbs4j's target and against the kernel's,
    the reference. blktests-failed.txt, a run asked for that did not happen, fails the run. A test
    that passes against the kernel's target and fails against verbs4j's fails the run unless
    nvmeof/blktests-findings.tsv explains it; a test that fails against both is reported, not
    judged, and so is one that ran against the kernel's target only (its loop device variants).
    Returns the number of tests that passed against verbs4j's target, and the number that did not
    run there (skips, with blktests' reasons)."""
    skipped = read_lines(os.path.join(VM, "blktests-skipped.txt"))
    failed = read_lines(os.path.join(VM, "blktests-failed.txt"))
    rows = [line.split("\t") for line in read_lines(os.path.join(VM, "blktests.tsv")) or [] if line.strip()]
    if failed:
        column_lines.append("blktests: failed: %s" % failed[0])
        problems.append("blktests: %s" % failed[0])
    if skipped and not rows:
        column_lines.append("blktests: skipped: %s" % skipped[0])
        return 0, 0
    if not rows:
        return 0, 0
    explained = {}
    for line in read_lines(BLKTESTS_FINDINGS) or []:
        fields = line.split("\t")
        if len(fields) >= 2 and not line.startswith("#"):
            explained[fields[0]] = fields[1]
    outcome = {}
    for fields in rows:
        if len(fields) >= 3:
            outcome[(fields[0], fields[1])] = (fields[2], fields[3] if len(fields) > 3 else "")
    tests = sorted({test for _, test in outcome})
    for column in ("kernel", "java"):
        counts = collections.Counter(outcome[(c, t)][0] for c, t in outcome if c == column)
        if counts:
            column_lines.append("blktests-%s: %d passed, %d failed, %d not run" % (
                column, counts["pass"], counts["fail"], counts["not run"]))
    passed = not_run = 0
    for test in tests:
        kernel, _ = outcome.get(("kernel", test), ("absent", ""))
        java, why = outcome.get(("java", test), ("absent", ""))
        if java == "pass":
            passed += 1
        elif java == "not run":
            not_run += 1
            print("blktests %s: not run against verbs4j's target: %s" % (test, why.strip()))
        if java == "fail":
            line = "blktests %s: %s against the kernel's target, %s against verbs4j's: %s" % (test, kernel, java, why.strip())
            if test in explained:
                print(line + " (listed: %s)" % explained[test])
            elif kernel in ("pass", "absent"):
                problems.append(line)
            else:
                print(line + " (the reference fails too)")
    return passed, not_run


def main():
    if sys.argv[1:] == ["--pairs"]:
        # scripts/vm-pair.sh: the two-host columns only, against the one-host columns of the last test run.
        problems = []
        judge_pairs(finding_lists(), problems)
        for p in problems:
            print("FAILED: " + p)
        sys.exit(1 if problems else 0)
    kernel_columns_only = sys.argv[1:] == ["--kernel-columns"]
    problems = []
    if not kernel_columns_only:
        write_repeat_report(problems)
    columns = vm_columns()
    if kernel_columns_only:
        columns = [r for r in columns if r["label"].startswith(KERNEL_COLUMN + "-")
                   and r["label"] not in (CONTAINER_COLUMN, PATCHED_COLUMN)]
    elif not any(r["label"] == KERNEL_COLUMN for r in columns):
        print("kernel rxe suite: no %s.json conformance report in %s" % (KERNEL_COLUMN, REPORTS))
        sys.exit(1)
    if not kernel_columns_only:
        labels = {r["label"] for r in columns}
        for label in ("soft-to-rxe", "rxe-to-soft", REPEAT_COLUMN) + CM_COLUMNS + IPV6_COLUMNS:
            if label not in labels:
                problems.append("no %s.json conformance report (log in target/vm/%s.log)" % (label, label))
        if SIW_COLUMN not in labels:
            why = read_lines(os.path.join(VM, "siw-module.txt")) + read_lines(os.path.join(VM, "siw.skipped"))
            problems.append("no %s.json conformance report: %s" % (
                SIW_COLUMN, why[0] if why else "see target/vm/conformance-siw.log"))
    lists = finding_lists()
    passed = skipped = findings = 0
    column_lines = []
    for report in columns:
        column_passed, column_skipped, column_findings, line = judge_column(report, lists, problems)
        passed += column_passed
        skipped += column_skipped
        findings += column_findings
        column_lines.append(line)
    judge_kernel_columns(columns, problems)
    if not kernel_columns_only:
        column_lines.extend(judge_container(columns, lists, problems))
        column_lines.append(judge_patched(columns, lists, problems))
        column_lines.extend(judge_pairs(lists, problems))
    if kernel_columns_only:
        for p in problems:
            print("FAILED: " + p)
        sys.exit(1 if problems else 0)

    # Every case of the suite is in the kernel column's report, skipped or not.
    suite_cases = {c["id"] for r in columns if r["label"] == KERNEL_COLUMN for c in r["cases"]}
    column_lines.append(judge_pyverbs(suite_cases, problems))

    interop_passed = 0
    for name in INTEROP_SIDES:
        path = os.path.join(VM, "interop-%s.rc" % name)
        try:
            with open(path) as f:
                rc = f.read().split()
        except OSError:
            rc = ["missing"]
        failed_cases = write_interop_report(name, rc)
        column_lines.append("interop-%s: %d passed, %d failed" % (name, len(INTEROP_CASES) - len(failed_cases), len(failed_cases)))
        if rc == ["0", "0"] and not failed_cases:
            interop_passed += 1
            print("interop %s: both sides verified every byte and result" % name)
        else:
            problems.append("interop %s failed (client, server status: %s; %s; logs in target/vm)"
                            % (name, " ".join(rc), "; ".join(c["id"] + ": " + c["detail"] for c in failed_cases) or "every check reported"))

    column_lines.append(judge_c_tools(lists, problems))
    column_lines.append(judge_nvmeof(lists, problems))
    column_lines.append(judge_nvmeof_siw(lists, problems))
    judge_reproducers(lists, problems)

    bw_c = perf_line(os.path.join(VM, "ib_write_bw.log"), r"^65536\s")
    bw_j = perf_line(os.path.join(VM, "perf-ibverbs-write_bw.log"), r"^65536\s")
    lat_c = perf_line(os.path.join(VM, "ib_write_lat.log"), r"^8\s")
    lat_j = perf_line(os.path.join(VM, "perf-ibverbs-write_lat.log"), r"^8\s")
    c_gbps = float(bw_c[3]) if bw_c else None
    if bw_c and bw_j:
        j = float(bw_j[3])
        print("perf on rxe0 (MTU 1024, 64 KiB): verbs4j ibverbs write_bw %.3f Gb/s vs ib_write_bw %.3f Gb/s average: %s"
              % (j, c_gbps, share_of(j, c_gbps, "ib_write_bw")))
    if lat_c and lat_j and lat_c[4] not in ("inf", "-nan", "nan"):
        c, j = float(lat_c[4]), float(lat_j[4])
        print("perf on rxe0 (8 bytes): verbs4j ibverbs write_lat typical %.2f us vs ib_write_lat %.2f us: %s"
              % (j, c, share_of(j, c, "ib_write_lat")))
    elif lat_c:
        print("perf on rxe0: ib_write_lat reported no latency this run (its cycle clock reads inf under emulation)")

    for name, what in (("ibverbs-two-processes", "verbs4j ibverbs write_bw as two processes (perf --server and a client)"),
                       ("soft-client-kernel-server", "soft client in the peer namespace -> kernel rxe server, write_bw")):
        try:
            with open(os.path.join(VM, "perf-%s.rc" % name)) as f:
                rc = f.read().split()
        except OSError:
            rc = ["missing"]
        line = perf_line(os.path.join(VM, "perf-%s-client.log" % name), r"^65536\s")
        if rc != ["0", "0"] or not line:
            problems.append("perf %s failed (client, server status: %s; logs in target/vm)" % (name, " ".join(rc)))
        elif bw_c:
            print("perf on rxe0: %s %.3f Gb/s vs ib_write_bw %.3f Gb/s: %s"
                  % (what, float(line[3]), c_gbps, share_of(float(line[3]), c_gbps, "ib_write_bw")))

    faults = read_lines(os.path.join(VM, "kernel-faults.txt"))
    if faults:
        problems.append("the guest kernel faulted during the boot's runs (%d lines in target/vm/kernel-faults.txt): %s"
                        % (len(faults), faults[0]))
    fuzz_passed = judge_fuzzer(column_lines, problems)
    cm_passed = judge_connection_manager(column_lines, problems)
    netdev_passed = judge_netdev(column_lines, problems)
    lossy_passed = judge_lossy(column_lines, problems)
    blktests_passed, blktests_not_run = judge_blktests(column_lines, problems)
    skipped += blktests_not_run

    passed += blktests_passed + interop_passed + fuzz_passed + cm_passed + netdev_passed + lossy_passed
    print("kernel rxe VM, all columns: %d passed, %d failed, %d skipped, %d findings"
          % (passed, len(problems), skipped, findings))
    with open(os.path.join(VM, "summary.env"), "w") as f:
        f.write("VM_STATUS=ran\nVM_PASSED=%d\nVM_FAILED=%d\nVM_SKIPPED=%d\nVM_FINDINGS=%d\n"
                % (passed, len(problems), skipped, findings))
        f.write("VM_COLUMNS=%d\n" % len(column_lines))
        for i, line in enumerate(column_lines, 1):
            f.write("VM_COLUMN_%d=%s\n" % (i, shlex.quote(line)))
    # Again at the end of the test command's output (scripts/test-summary.sh), where a reader of
    # only its last lines looks.
    with open(os.path.join(VM, "problems.txt"), "w") as f:
        for p in problems:
            f.write(p.replace("\n", " ") + "\n")
    for p in problems:
        print("FAILED: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
