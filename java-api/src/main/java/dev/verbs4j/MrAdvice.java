package dev.verbs4j;

/** Advice for {@link ProtectionDomain#adviseMr} ({@code enum ibv_advise_mr_advice}). */
public enum MrAdvice {
    /** Fault the pages in for reading. */
    PREFETCH,
    /** Fault the pages in for writing. */
    PREFETCH_WRITE,
    /** Map only the pages already present; fault nothing in. */
    PREFETCH_NO_FAULT;

    /**
     * The {@code IBV_ADVISE_MR_ADVICE_*} number.
     *
     * @return the number {@code ibv_advise_mr} takes
     */
    public int value() {
        return ordinal();
    }

    /** {@code IBV_ADVISE_MR_FLAG_FLUSH}: the call returns only when the advice has been carried out. */
    public static final int FLAG_FLUSH = 1;
}
