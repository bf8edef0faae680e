package dev.verbs4j.tools.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code verbs4j perf-report IN.jsonl [OUT.html]}: turns the lines {@code perf --json} wrote
 * into one HTML page with charts (bandwidth against message size; latency, typical and 99th
 * percentile, against message size) and the table of every line. The page is self-contained
 * (inline SVG, no scripts).
 */
public final class PerfReport {
    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(?:\"([^\"]*)\"|(-?[0-9.eE+]+|NaN|-?Infinity))");
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    private static final int WIDTH = 920;
    private static final int HEIGHT = 360;
    private static final int LEFT = 70;
    private static final int RIGHT = 400;
    private static final int TOP = 20;
    private static final int BOTTOM = 50;

    private PerfReport() {
    }

    public static int run(String[] args, PrintStream out) {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("usage: perf-report IN.jsonl [OUT.html]");
        }
        Path in = Path.of(args[0]);
        Path html = Path.of(args.length == 2 ? args[1] : args[0].replaceFirst("\\.jsonl?$", "") + ".html");
        try {
            List<Map<String, String>> lines = parse(Files.readAllLines(in, StandardCharsets.UTF_8));
            Files.writeString(html, page(in.getFileName().toString(), lines), StandardCharsets.UTF_8);
            out.println("perf-report: " + lines.size() + " results from " + in + " -> " + html);
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The flat JSON objects of {@code perf --json}, one per non-blank line, as field → text. */
    static List<Map<String, String>> parse(List<String> jsonLines) {
        List<Map<String, String>> results = new ArrayList<>();
        for (String line : jsonLines) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            Matcher m = FIELD.matcher(line);
            while (m.find()) {
                fields.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
            }
            if (!fields.containsKey("test") || !fields.containsKey("bytes")) {
                throw new IllegalArgumentException("not a perf --json line: " + line);
            }
            results.add(fields);
        }
        return results;
    }

    static String page(String title, List<Map<String, String>> results) {
        StringBuilder sb = new StringBuilder(16384);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>verbs4j perf: ").append(html(title))
                .append("</title>\n<style>body{font-family:sans-serif;font-size:14px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #bbb;padding:3px 6px;text-align:right}th{background:#eee}td.l{text-align:left}")
                .append("svg{border:1px solid #ddd;margin:8px 0}</style></head><body>\n<h1>verbs4j perf: ").append(html(title))
                .append("</h1>\n");
        Map<String, List<double[]>> bandwidth = new LinkedHashMap<>();
        Map<String, List<double[]>> latency = new LinkedHashMap<>();
        for (Map<String, String> r : results) {
            String series = r.get("test") + ", " + r.getOrDefault("setup", "");
            double bytes = number(r, "bytes");
            if (r.containsKey("bw_avg_gbps")) {
                bandwidth.computeIfAbsent(series, k -> new ArrayList<>()).add(new double[] {bytes, number(r, "bw_avg_gbps")});
            } else if (r.containsKey("t_typical_us")) {
                latency.computeIfAbsent(series + " typical", k -> new ArrayList<>()).add(new double[] {bytes, number(r, "t_typical_us")});
                latency.computeIfAbsent(series + " 99%", k -> new ArrayList<>()).add(new double[] {bytes, number(r, "t_p99_us")});
            }
        }
        if (!bandwidth.isEmpty()) {
            sb.append("<h2>Bandwidth (average) against message size</h2>\n").append(chart(bandwidth, "Gb/s"));
        }
        if (!latency.isEmpty()) {
            sb.append("<h2>Latency (typical and 99th percentile) against message size</h2>\n").append(chart(latency, "µs"));
        }
        sb.append("<h2>Every result</h2>\n<table><tr>");
        List<String> columns = new ArrayList<>();
        for (Map<String, String> r : results) {
            r.keySet().stream().filter(k -> !columns.contains(k)).forEach(columns::add);
        }
        columns.forEach(c -> sb.append("<th>").append(html(c)).append("</th>"));
        sb.append("</tr>\n");
        for (Map<String, String> r : results) {
            sb.append("<tr>");
            for (String c : columns) {
                String v = r.getOrDefault(c, "");
                sb.append(c.equals("test") || c.equals("setup") ? "<td class=\"l\">" : "<td>").append(html(v)).append("</td>");
            }
            sb.append("</tr>\n");
        }
        return sb.append("</table>\n</body></html>\n").toString();
    }

    /** A line chart, message size on a log-2 axis, one polyline (and its points) per series. */
    private static String chart(Map<String, List<double[]>> series, String unit) {
        TreeSet<Double> sizes = new TreeSet<>();
        double top = 0;
        for (List<double[]> points : series.values()) {
            for (double[] p : points) {
                sizes.add(p[0]);
                top = Math.max(top, Double.isFinite(p[1]) ? p[1] : 0);
            }
        }
        top = top > 0 ? top * 1.1 : 1;
        double lo = log2(sizes.first());
        double hi = Math.max(lo + 1, log2(sizes.last()));
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" font-size=\"11\">\n");
        sb.append(line(LEFT, TOP + plotH, LEFT + plotW, TOP + plotH, "#000")).append(line(LEFT, TOP, LEFT, TOP + plotH, "#000"));
        for (int i = 0; i <= 5; i++) {
            double v = top * i / 5;
            double y = TOP + plotH - plotH * i / 5.0;
            sb.append(line(LEFT, y, LEFT + plotW, y, "#eee")).append(text(LEFT - 6, y + 4, "end", fmt(v)));
        }
        for (double size : sizes) {
            double x = LEFT + plotW * (log2(size) - lo) / (hi - lo);
            sb.append(line(x, TOP + plotH, x, TOP + plotH + 4, "#000")).append(text(x, TOP + plotH + 16, "middle", sizeLabel(size)));
        }
        sb.append(text(LEFT + plotW / 2.0, HEIGHT - 12, "middle", "message size (bytes)"));
        sb.append(text(14, TOP + plotH / 2.0, "middle", unit));
        int i = 0;
        for (Map.Entry<String, List<double[]>> s : series.entrySet()) {
            String colour = COLOURS[i % COLOURS.length];
            StringBuilder points = new StringBuilder();
            for (double[] p : s.getValue()) {
                double x = LEFT + plotW * (log2(p[0]) - lo) / (hi - lo);
                double y = TOP + plotH - plotH * (Double.isFinite(p[1]) ? p[1] : 0) / top;
                points.append(fmt(x)).append(',').append(fmt(y)).append(' ');
                sb.append("<circle cx=\"").append(fmt(x)).append("\" cy=\"").append(fmt(y)).append("\" r=\"3\" fill=\"").append(colour)
                        .append("\"><title>").append(html(s.getKey())).append(": ").append(sizeLabel(p[0])).append(" B, ")
                        .append(fmt(p[1])).append(' ').append(unit).append("</title></circle>\n");
            }
            sb.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\" points=\"")
                    .append(points.toString().trim()).append("\"/>\n");
            double ly = TOP + 10 + 16 * i;
            sb.append("<rect x=\"").append(WIDTH - RIGHT + 12).append("\" y=\"").append(fmt(ly - 8)).append("\" width=\"10\" height=\"10\" fill=\"")
                    .append(colour).append("\"/>").append(text(WIDTH - RIGHT + 26, ly + 1, "start", s.getKey())).append('\n');
            i++;
        }
        return sb.append("</svg>\n").toString();
    }

    private static double number(Map<String, String> r, String field) {
        try {
            return Double.parseDouble(r.getOrDefault(field, "NaN"));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static double log2(double v) {
        return Math.log(Math.max(1, v)) / Math.log(2);
    }

    private static String sizeLabel(double bytes) {
        long b = (long) bytes;
        return b >= 1 << 20 && b % (1 << 20) == 0 ? (b >> 20) + "M" : b >= 1024 && b % 1024 == 0 ? (b >> 10) + "K" : Long.toString(b);
    }

    private static String line(double x1, double y1, double x2, double y2, String colour) {
        return "<line x1=\"" + fmt(x1) + "\" y1=\"" + fmt(y1) + "\" x2=\"" + fmt(x2) + "\" y2=\"" + fmt(y2) + "\" stroke=\"" + colour + "\"/>";
    }

    private static String text(double x, double y, String anchor, String s) {
        return "<text x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" text-anchor=\"" + anchor + "\">" + html(s) + "</text>";
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.3f", v);
    }

    private static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
