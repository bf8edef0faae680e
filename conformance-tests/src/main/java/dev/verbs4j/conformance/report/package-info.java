/**
 * The conformance report: a JUnit Platform listener records every case, writes one JSON
 * file per provider/device pair ({@link dev.verbs4j.conformance.report.ReportJson} documents
 * the format) and a Markdown and HTML matrix merged from every JSON file in the report
 * folder, with whether each case's columns agree, then prints a summary.
 */
package dev.verbs4j.conformance.report;
