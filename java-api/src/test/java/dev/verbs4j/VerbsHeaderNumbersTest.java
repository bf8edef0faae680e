package dev.verbs4j;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every enum value of the API equals the number rdma-core's headers give its libibverbs
 * counterpart. The headers are the newest found: {@code -Dverbs4j.includeDir}, then
 * {@code $VERBS4J_INCLUDE_DIR}, then the newer rdma-core headers the ibverbs build
 * unpacks into {@code ~/.cache/verbs4j/headers}, then {@code /usr/include}. A name the
 * headers lack (FLUSH before rdma-core 45) is a skip that says so.
 */
class VerbsHeaderNumbersTest {
    private static final Optional<Path> INCLUDE_DIR = findIncludeDir();
    private static final CHeaderConstants HEADERS = INCLUDE_DIR.map(VerbsHeaderNumbersTest::load).orElse(null);

    @TestFactory
    Stream<DynamicTest> accessFlags() {
        return check(Access.values(), a -> "IBV_ACCESS_" + a.name(), Access::value);
    }

    @TestFactory
    Stream<DynamicTest> qpTypes() {
        return check(QpType.values(), t -> "IBV_QPT_" + t.name(), QpType::value);
    }

    @TestFactory
    Stream<DynamicTest> qpStates() {
        return check(QpState.values(), s -> "IBV_QPS_" + s.name(), QpState::value);
    }

    @TestFactory
    Stream<DynamicTest> mtus() {
        return check(Mtu.values(), m -> "IBV_" + m.name(), Mtu::value);
    }

    @TestFactory
    Stream<DynamicTest> workRequestOpcodes() {
        WrOpcode[] inLibibverbs = Stream.of(WrOpcode.values()).filter(WrOpcode::inLibibverbs).toArray(WrOpcode[]::new);
        return check(inLibibverbs, o -> "IBV_WR_" + o.name(), WrOpcode::value);
    }

    @TestFactory
    Stream<DynamicTest> sendOpsFlags() {
        WrOpcode[] inLibibverbs = Stream.of(WrOpcode.values()).filter(WrOpcode::inLibibverbs).toArray(WrOpcode[]::new);
        return check(inLibibverbs, o -> "IBV_QP_EX_WITH_" + o.name(), WrOpcode::sendOpsFlag);
    }

    @TestFactory
    Stream<DynamicTest> completionOpcodes() {
        WcOpcode[] inLibibverbs = Stream.of(WcOpcode.values()).filter(o -> o != WcOpcode.REG_MR).toArray(WcOpcode[]::new);
        return check(inLibibverbs, o -> "IBV_WC_" + o.name(), WcOpcode::value);
    }

    @TestFactory
    Stream<DynamicTest> completionStatuses() {
        return check(WcStatus.values(), s -> "IBV_WC_" + s.name(), WcStatus::value);
    }

    @TestFactory
    Stream<DynamicTest> completionFlags() {
        return check(WcFlag.values(), f -> "IBV_WC_" + f.name(), WcFlag::value);
    }

    @TestFactory
    Stream<DynamicTest> sendFlags() {
        return check(SendFlag.values(), f -> "IBV_SEND_" + f.name(), SendFlag::value);
    }

    @TestFactory
    Stream<DynamicTest> deviceCapabilities() {
        return check(DeviceCapability.values(), c -> switch (c) {
            case FLUSH_GLOBAL, FLUSH_PERSISTENT, ATOMIC_WRITE -> "IB_UVERBS_DEVICE_" + c.name();
            default -> "IBV_DEVICE_" + c.name();
        }, DeviceCapability::value);
    }

    @TestFactory
    Stream<DynamicTest> atomicCapabilities() {
        return check(AtomicCapability.values(), c -> "IBV_ATOMIC_" + c.name(), AtomicCapability::value);
    }

    @TestFactory
    Stream<DynamicTest> odpCapabilities() {
        return Stream.concat(
                check(OdpCapability.values(), c -> "IBV_ODP_" + c.name(), OdpCapability::value),
                check(OdpTransportCapability.values(), c -> "IBV_ODP_SUPPORT_" + c.name(), OdpTransportCapability::value));
    }

    @TestFactory
    Stream<DynamicTest> portStates() {
        return check(PortState.values(), s -> "IBV_PORT_" + s.name(), PortState::value);
    }

    @TestFactory
    Stream<DynamicTest> memoryWindowTypes() {
        return check(MwType.values(), t -> "IBV_MW_" + t.name(), MwType::value);
    }

    @TestFactory
    Stream<DynamicTest> flushPlacementAndSelectivity() {
        return Stream.concat(
                check(FlushType.values(), t -> "IBV_FLUSH_" + t.name(), FlushType::value),
                check(FlushLevel.values(), l -> "IBV_FLUSH_" + l.name(), FlushLevel::value));
    }

    @TestFactory
    Stream<DynamicTest> adviseMr() {
        return Stream.concat(
                check(MrAdvice.values(), a -> "IBV_ADVISE_MR_ADVICE_" + a.name(), MrAdvice::value),
                check(new String[] {"FLAG_FLUSH"}, f -> "IBV_ADVISE_MR_" + f, f -> MrAdvice.FLAG_FLUSH));
    }

    @TestFactory
    Stream<DynamicTest> qpAttributeMask() {
        return check(QpAttrMask.values(), m -> "IBV_QP_" + m.name(), QpAttrMask::value);
    }

    @TestFactory
    Stream<DynamicTest> asyncEvents() {
        return check(AsyncEventType.values(), e -> "IBV_EVENT_" + e.name(), AsyncEventType::value);
    }

    private static <T> Stream<DynamicTest> check(T[] constants, Function<T, String> cName, ToLongFunction<T> javaValue) {
        return Stream.of(constants).map(c -> DynamicTest.dynamicTest(cName.apply(c), () -> {
            Assumptions.assumeTrue(HEADERS != null,
                    "no rdma-core headers found (install libibverbs-dev or set -Dverbs4j.includeDir)");
            OptionalLong expected = HEADERS.value(cName.apply(c));
            Assumptions.assumeTrue(expected.isPresent(),
                    cName.apply(c) + " is not defined by the headers in " + INCLUDE_DIR.get()
                            + " (FLUSH names need rdma-core 45+; the IB_UVERBS_DEVICE_* bits are the kernel's"
                            + " rdma/ib_user_verbs.h, which libibverbs-dev does not ship)");
            assertEquals(expected.getAsLong(), javaValue.applyAsLong(c), cName.apply(c));
        }));
    }

    private static CHeaderConstants load(Path include) {
        List<Path> files = new ArrayList<>();
        for (String sub : List.of("infiniband", "rdma")) {
            Path dir = include.resolve(sub);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    s.filter(p -> p.toString().endsWith(".h")).sorted().forEach(files::add);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new CHeaderConstants(files);
    }

    private static Optional<Path> findIncludeDir() {
        List<Path> candidates = new ArrayList<>();
        String property = System.getProperty("verbs4j.includeDir", System.getenv("VERBS4J_INCLUDE_DIR"));
        if (property != null) {
            candidates.add(Path.of(property));
        }
        String cache = System.getenv("VERBS4J_CACHE");
        Path headers = (cache != null ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache", "verbs4j"))
                .resolve("headers");
        if (Files.isDirectory(headers)) {
            try (Stream<Path> s = Files.find(headers, 8, (p, a) -> p.endsWith(Path.of("infiniband", "verbs.h")))) {
                s.map(p -> p.getParent().getParent()).sorted().forEach(candidates::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        candidates.add(Path.of("/usr/include"));
        Optional<Path> any = Optional.empty();
        for (Path c : candidates) {
            Path verbs = c.resolve("infiniband/verbs.h");
            if (Files.isRegularFile(verbs)) {
                if (hasFlush(verbs)) {
                    return Optional.of(c);
                }
                if (any.isEmpty()) {
                    any = Optional.of(c);
                }
            }
        }
        return any;
    }

    private static boolean hasFlush(Path verbs) {
        try {
            return Files.readString(verbs).contains("ibv_wr_flush");
        } catch (IOException e) {
            return false;
        }
    }
}
