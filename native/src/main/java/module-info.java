/**
 * The ibverbs provider: the verbs API over rdma-core's libibverbs and librdmacm, through a
 * JavaCPP binding. Its JNI library is loaded by JavaCPP's loader, so on the module path native
 * access goes to {@code org.bytedeco.javacpp} (and this module):
 * {@code --enable-native-access=dev.verbs4j.ibverbs,org.bytedeco.javacpp}. The binding package
 * is open to JavaCPP, whose loader reads its annotations and fills its pointers' fields.
 *
 * <p>The JNI libraries are not in this module: they ship in the platform jar (classifier
 * {@code linux-x86_64}), the automatic module {@code dev.verbs4j.ibverbs.linux.x86_64}, which
 * nothing requires, so an application on the module path adds it by name
 * ({@code --add-modules dev.verbs4j.ibverbs.linux.x86_64}). JavaCPP's loader finds them through
 * the class loader's resources, in {@code dev/verbs4j/ibverbs/binding/linux-x86_64/}.
 */
module dev.verbs4j.ibverbs {
    requires transitive dev.verbs4j;
    requires org.bytedeco.javacpp;

    exports dev.verbs4j.ibverbs;
    opens dev.verbs4j.ibverbs.binding to org.bytedeco.javacpp;

    provides dev.verbs4j.spi.VerbsProvider with dev.verbs4j.ibverbs.IbverbsProvider;
}
