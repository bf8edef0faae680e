package dev.verbs4j.conformance.fuzz;

/**
 * One kind of call the fuzzer makes, with how often it is chosen.
 *
 * @param name   what the trace calls it
 * @param weight its share of the calls
 * @param call   makes the call with fresh random arguments
 */
record Action(String name, int weight, Call call) {
    /** One verbs call; what it throws is judged by {@link Outcomes}. */
    @FunctionalInterface
    interface Call {
        void run(Args args) throws Exception;
    }
}
