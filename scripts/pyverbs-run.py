"""Runs rdma-core's own test suite (pyverbs' tests/run_tests.py) unchanged and records each test.

Used inside the rxe micro-VM by scripts/vm-guest.sh:

    python3 scripts/pyverbs-run.py TESTS_DIR OUT.json [run_tests.py options, e.g. --dev rxe0 -v]

The suite runs through its own entry point; the only addition is the result class of
unittest's text runner, which also notes every test's outcome (pass, fail, error, skip with
its reason). OUT.json is the reference table the conformance report and
scripts/vm-evaluate.py read, format "verbs4j-pyverbs-reference/1":

    {"format": ..., "device": "rxe0", "startedAt": ..., "durationMs": ...,
     "counts": {"pass": n, "fail": n, "error": n, "skip": n},
     "tests": [{"id": "tests.test_pd.PDTest.test_alloc_pd", "outcome": "pass", "detail": "", "durationMs": n}, ...]}
"""
import datetime
import json
import os
import runpy
import sys
import time
import traceback
import unittest

FORMAT = "verbs4j-pyverbs-reference/1"
RECORDED = []


def record(test, outcome, detail=""):
    started = getattr(test, "_verbs4j_started", None)
    elapsed = int((time.monotonic() - started) * 1000) if started else 0
    RECORDED.append({"id": test.id(), "outcome": outcome, "detail": detail, "durationMs": elapsed})


def last_line(err):
    """The exception's own line, the part of a traceback that says what went wrong."""
    lines = "".join(traceback.format_exception_only(err[0], err[1])).strip().splitlines()
    return lines[-1] if lines else str(err[0])


class RecordingResult(unittest.TextTestResult):
    def startTest(self, test):
        test._verbs4j_started = time.monotonic()
        super().startTest(test)

    def addSuccess(self, test):
        super().addSuccess(test)
        record(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        record(test, "fail", last_line(err))

    def addError(self, test, err):
        super().addError(test, err)
        # A module that fails in setUpClass is reported on a placeholder, not on a test.
        record(test, "error", last_line(err))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        record(test, "skip", str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        record(test, "pass", "expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        record(test, "fail", "unexpected success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            record(test, "fail" if failed else "error", "%s: %s" % (subtest._subDescription(), last_line(err)))


def write(path, device, started_at, started):
    # A test with a failing subtest is recorded more than once: its worst outcome stands.
    rank = {"error": 3, "fail": 2, "pass": 1, "skip": 0}
    by_id = {}
    for t in RECORDED:
        if t["id"] not in by_id or rank[t["outcome"]] > rank[by_id[t["id"]]["outcome"]]:
            by_id[t["id"]] = t
    tests = sorted(by_id.values(), key=lambda t: t["id"])
    counts = {k: sum(1 for t in tests if t["outcome"] == k) for k in ("pass", "fail", "error", "skip")}
    report = {"format": FORMAT, "device": device, "startedAt": started_at,
              "durationMs": int((time.monotonic() - started) * 1000), "counts": counts, "tests": tests}
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print("pyverbs on %s: %d tests, %d passed, %d failed, %d errors, %d skipped"
          % (device, len(tests), counts["pass"], counts["fail"], counts["error"], counts["skip"]), file=sys.stderr)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tests_dir, out = sys.argv[1], sys.argv[2]
    options = sys.argv[3:]
    device = options[options.index("--dev") + 1] if "--dev" in options[:-1] else ""
    started_at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    started = time.monotonic()
    unittest.TextTestRunner.resultclass = RecordingResult
    entry = os.path.join(tests_dir, "run_tests.py")
    sys.argv = [entry] + options
    sys.path.insert(0, tests_dir)
    status = 0
    try:
        runpy.run_path(entry, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    finally:
        write(out, device, started_at, started)
    # Leaving through the interpreter's teardown lets pyverbs' destructors run in any order,
    # and a device object freed before its children crashed the process there.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    main()
