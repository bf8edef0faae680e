/** A tiny application of the verbs API, run on the module path and on the class path by ModulePathTest. */
module dev.verbs4j.example {
    requires dev.verbs4j;
}
