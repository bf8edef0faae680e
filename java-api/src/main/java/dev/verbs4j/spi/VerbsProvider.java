package dev.verbs4j.spi;

import dev.verbs4j.Provider;

/**
 * What a provider implements to be found by {@link dev.verbs4j.Verbs}, as a libibverbs
 * provider library (rxe, mlx5, ...) registers its {@code verbs_device_ops}: list it in
 * {@code META-INF/services/dev.verbs4j.spi.VerbsProvider}. It needs a public no-argument
 * constructor that does no I/O that can fail; {@link #devices()} must not throw when the
 * provider cannot run here, but return no devices and say why in
 * {@link #unavailableReason()}.
 */
public interface VerbsProvider extends Provider {
}
