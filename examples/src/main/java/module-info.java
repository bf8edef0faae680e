/** A tiny application of the verbs API: the demo's operations on the soft provider, as a module. */
module dev.verbs4j.example {
    requires dev.verbs4j;
}
