/**
 * The conformance report: a JUnit Platform listener records every case, writes one JSON
 * file per provider/device pair ({@link dev.verbs4j.conformance.report.ReportJson} documents
 * the format) and a Markdown and HTML matrix merged from every JSON file in the report
 * folder, with whether each case's columns agree, and, for runs of a kernel device on both
 * sides, a view by kernel release ({@link dev.verbs4j.conformance.report.KernelView}), then
 * prints a summary.
 */
package dev.verbs4j.conformance.report;
