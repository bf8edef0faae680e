package dev.verbs4j;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the integer constants of C headers: enumerators (with implicit increments) and
 * object-like {@code #define}s, evaluating the shifts, ors and references verbs.h uses.
 * Enough for rdma-core's headers; not a C preprocessor.
 */
final class CHeaderConstants {
    private static final Pattern ENUM = Pattern.compile("enum\\s+(\\w+)?\\s*\\{([^}]*)}", Pattern.DOTALL);
    private static final Pattern DEFINE = Pattern.compile("^\\s*#\\s*define\\s+(\\w+)\\s+([^\\n]+)$", Pattern.MULTILINE);

    private final Map<String, String> rawDefines = new HashMap<>();
    private final Map<String, Long> values = new HashMap<>();

    CHeaderConstants(List<Path> headers) {
        StringBuilder all = new StringBuilder();
        for (Path h : headers) {
            try {
                all.append(stripComments(Files.readString(h))).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        String text = all.toString();
        Matcher d = DEFINE.matcher(text);
        while (d.find()) {
            rawDefines.put(d.group(1), d.group(2).trim());
        }
        Matcher m = ENUM.matcher(text);
        while (m.find()) {
            long next = 0;
            for (String entry : m.group(2).split(",")) {
                String e = entry.trim();
                if (e.isEmpty() || e.startsWith("#")) {
                    continue;
                }
                String name = e.contains("=") ? e.substring(0, e.indexOf('=')).trim() : e;
                if (!name.matches("\\w+")) {
                    continue;
                }
                OptionalLong v = e.contains("=") ? eval(e.substring(e.indexOf('=') + 1).trim()) : OptionalLong.of(next);
                if (v.isPresent()) {
                    values.put(name, v.getAsLong());
                    next = v.getAsLong() + 1;
                }
            }
        }
    }

    /** The value of a named constant, if the headers define it. */
    OptionalLong value(String name) {
        Long v = values.get(name);
        if (v != null) {
            return OptionalLong.of(v);
        }
        String raw = rawDefines.get(name);
        return raw == null ? OptionalLong.empty() : eval(raw);
    }

    private OptionalLong eval(String expression) {
        try {
            return OptionalLong.of(new Parser(expression).parse());
        } catch (RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private static String stripComments(String s) {
        return s.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", "");
    }

    /** Recursive descent over | ^ & << >> + - ~ ( ) numbers and names. */
    private final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        long parse() {
            long v = or();
            skip();
            if (pos != s.length()) {
                throw new IllegalArgumentException("trailing input in " + s);
            }
            return v;
        }

        private long or() {
            long v = and();
            while (peek('|')) {
                pos++;
                v |= and();
            }
            return v;
        }

        private long and() {
            long v = shift();
            while (peek('&')) {
                pos++;
                v &= shift();
            }
            return v;
        }

        private long shift() {
            long v = sum();
            while (true) {
                if (peekStr("<<")) {
                    pos += 2;
                    v <<= sum();
                } else if (peekStr(">>")) {
                    pos += 2;
                    v >>>= sum();
                } else {
                    return v;
                }
            }
        }

        private long sum() {
            long v = unary();
            while (peek('+') || peek('-')) {
                char op = s.charAt(pos++);
                long r = unary();
                v = op == '+' ? v + r : v - r;
            }
            return v;
        }

        private long unary() {
            skip();
            if (peek('~')) {
                pos++;
                return ~unary();
            }
            if (peek('-')) {
                pos++;
                return -unary();
            }
            if (peek('(')) {
                pos++;
                int save = pos;
                String word = word();
                skip();
                if (!word.isEmpty() && peek(')') && !values.containsKey(word) && !rawDefines.containsKey(word)) {
                    pos++; // a cast such as (uint64_t)
                    return unary();
                }
                pos = save;
                long v = or();
                expect(')');
                return v;
            }
            String w = word();
            if (w.isEmpty()) {
                throw new IllegalArgumentException("unexpected input in " + s);
            }
            if (Character.isDigit(w.charAt(0))) {
                String digits = w.replaceAll("[uUlL]+$", "");
                return digits.startsWith("0x") || digits.startsWith("0X")
                        ? Long.parseUnsignedLong(digits.substring(2), 16)
                        : Long.parseLong(digits);
            }
            return value(w).orElseThrow(() -> new IllegalArgumentException("unknown name " + w));
        }

        private String word() {
            skip();
            int start = pos;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                pos++;
            }
            return s.substring(start, pos);
        }

        private void skip() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private boolean peek(char c) {
            skip();
            return pos < s.length() && s.charAt(pos) == c && !(c == '|' && peekStr("||")) && !(c == '&' && peekStr("&&"));
        }

        private boolean peekStr(String t) {
            skip();
            return s.startsWith(t, pos);
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw new IllegalArgumentException("expected " + c + " in " + s);
            }
            pos++;
        }
    }
}
