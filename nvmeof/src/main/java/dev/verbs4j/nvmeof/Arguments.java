package dev.verbs4j.nvmeof;

import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;

/** Command-line helpers the two mains share: sizes with K/M/G suffixes, the provider by name. */
final class Arguments {
    private Arguments() {
    }

    /** {@code 4096}, {@code 64K}, {@code 16M}, {@code 1G}: bytes. */
    static long size(String text) {
        String t = text.trim().toUpperCase();
        long unit = switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            case 'T' -> 1L << 40;
            default -> 1;
        };
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        try {
            return Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a size: " + text);
        }
    }

    /** The provider named, or the default one ({@code verbs4j.provider}, else the first found). */
    static Provider provider(String name) {
        return name == null ? Verbs.defaultProvider() : Verbs.provider(name);
    }

    static String value(String[] args, int i) {
        if (i + 1 >= args.length) {
            throw new IllegalArgumentException(args[i] + " needs a value");
        }
        return args[i + 1];
    }
}
