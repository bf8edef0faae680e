package dev.verbs4j.tools.compat;

import dev.verbs4j.QpType;

/** The rdma-core example programs the compatibility mode stands in for, with their defaults. */
enum IbvProgram {
    RC("ibv_rc_pingpong", QpType.RC, 4096, (byte) 0x7b, "p:d:i:s:m:r:n:l:eg:oOPtcjNU"),
    UC("ibv_uc_pingpong", QpType.UC, 4096, (byte) 0x7b, "p:d:i:s:m:r:n:l:eg:c"),
    UD("ibv_ud_pingpong", QpType.UD, 1024, (byte) 0x7b, "p:d:i:s:r:n:l:eg:c"),
    SRQ("ibv_srq_pingpong", QpType.RC, 4096, (byte) 0, "p:d:i:s:m:q:r:n:l:eog:c");

    /** The addresses {@code ibv_srq_pingpong} exchanges, used or not. */
    static final int SRQ_SLOTS = 256;

    final String command;
    final QpType qpType;
    final int defaultSize;
    /** What the program fills its buffer with before any message. */
    final byte fill;
    /** The program's getopt string: the short options it accepts, ':' after those with a value. */
    final String shortOptions;

    IbvProgram(String command, QpType qpType, int defaultSize, byte fill, String shortOptions) {
        this.command = command;
        this.qpType = qpType;
        this.defaultSize = defaultSize;
        this.fill = fill;
        this.shortOptions = shortOptions;
    }

    /** The program named by {@code --compat}'s value: {@code ibv} (RC), or the program's name, with or without {@code ibv_} and {@code _pingpong}. */
    static IbvProgram named(String name) {
        String n = name.replace("ibv_", "").replace("_pingpong", "").replace("ibv-", "");
        if (n.equals("ibv") || n.isEmpty()) {
            return RC;
        }
        for (IbvProgram p : values()) {
            if (p.name().equalsIgnoreCase(n)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no program " + name + ": ibv (RC), ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong"
                + " or ibv_srq_pingpong (XRC, for ibv_xsrq_pingpong, is not in the API)");
    }

    boolean accepts(char option) {
        return shortOptions.indexOf(option) >= 0;
    }

    /** Whether the program's option takes a value. */
    boolean takesValue(char option) {
        int i = shortOptions.indexOf(option);
        return i >= 0 && i + 1 < shortOptions.length() && shortOptions.charAt(i + 1) == ':';
    }
}
