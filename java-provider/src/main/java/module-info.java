/**
 * The soft provider: a pure-Java RoCEv2 device ({@code soft}) over UDP. Its sockets go
 * through the C library when the module has native access
 * ({@code --enable-native-access=dev.verbs4j.soft}), else through {@code DatagramChannel}.
 * Its counters are MBeans ({@code java.management}) and its rare events JFR events
 * ({@code jdk.jfr}); {@code jdk.net} gives its sockets the Linux options.
 *
 * <p>It exports the devices and their configuration ({@code dev.verbs4j.softroce}). What
 * drives a device by hand ({@code SoftDevice.manual}, {@code SoftDevice.engine}: its engine,
 * links and packet codec) stays inside the module: it serves tests and simulations on the
 * class path.
 */
module dev.verbs4j.soft {
    requires transitive dev.verbs4j;
    requires java.management;
    requires jdk.jfr;
    requires jdk.net;

    exports dev.verbs4j.softroce;

    provides dev.verbs4j.spi.VerbsProvider with dev.verbs4j.softroce.SoftProvider;
}
