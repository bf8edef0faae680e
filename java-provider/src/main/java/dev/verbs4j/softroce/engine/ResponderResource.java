package dev.verbs4j.softroce.engine;

/**
 * What the responder keeps of a read-like request so a duplicate is answered again, not
 * executed again (IBTA 9.7.5.1.2): the PSN range, the read's target, the atomic's result.
 */
final class ResponderResource {
    static final int FREE = 0;
    static final int READ = 1;
    static final int ATOMIC = 2;
    static final int ATOMIC_WRITE = 3;
    static final int FLUSH = 4;

    int type = FREE;
    int firstPsn;
    int lastPsn;
    long va;
    int rkey;
    long length;
    long originalValue;

    void set(int kind, int first, int last) {
        type = kind;
        firstPsn = first;
        lastPsn = last;
    }
}
