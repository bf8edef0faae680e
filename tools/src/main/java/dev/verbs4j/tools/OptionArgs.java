package dev.verbs4j.tools;

import java.util.function.ToIntFunction;

/** Reads an option's value from a command line, with the messages every command prints. */
public final class OptionArgs {
    private OptionArgs() {
    }

    /** The value after {@code option}, at {@code args[i]}. @throws IllegalArgumentException when the line ends first */
    public static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    /**
     * The number after {@code option}, read by {@code parse} ({@link Integer#parseInt} as
     * {@code atoi} reads it, {@link Integer#decode} as {@code strtol} with base 0 does) and
     * within {@code min..max}.
     */
    public static int number(String[] args, int i, String option, int min, int max, ToIntFunction<String> parse) {
        String v = value(args, i, option);
        int n;
        try {
            n = parse.applyAsInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, not " + v);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(option + " must be " + min + ".." + max + ", not " + n);
        }
        return n;
    }
}
